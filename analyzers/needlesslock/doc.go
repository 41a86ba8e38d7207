// Package needlesslock defines an Analyzer that reports distributed locks that
// only guard work the database can serialize itself.
//
// # Analyzer needlesslock
//
// needlesslock: report Redis locks whose critical region only does SQL work on one database
//
// Most code that "needs a distributed lock" only updates one database, and the
// database has serialized updates for decades. A Redis lock there adds a failure
// point and, when its lease expires mid-work, silent corruption, for nothing.
// A distributed lock is earned only around irreversible external effects whose
// target offers no idempotency (a payment API, a webhook, a message broker).
//
// needlesslock reports, at the acquisition, a lock whose region (as
// unfencedwrite defines it) writes SQL and otherwise only reads SQL and
// computes (a gRPC status error built to return is a value): no HTTP or
// gRPC call, no message published, no file written, no
// other Redis command, and no call whose effects lockvet cannot see (an
// interface method, a func value, a package without a summary). It stays
// silent when a write uses the fencing token the lock's grant issued: without
// the lock there is no token, and two workers that each drew one would both
// succeed. The message names the replacement that fits what the region does,
// spelled in the statement's own table, columns and placeholder style:
//
//   - reads a row of a table, then updates that table: one conditional UPDATE
//     (… WHERE id = $1 AND status = $2, or ? on MySQL); RowsAffected == 1
//     means you won;
//   - reads a table, then inserts into it: a UNIQUE constraint on the columns
//     the read looked up (user_id, coupon_id) with INSERT … ON CONFLICT DO
//     NOTHING (MySQL: INSERT IGNORE);
//   - writes in a loop (a whole job): a UNIQUE-keyed task table, or a database
//     advisory lock (pg_advisory_xact_lock);
//   - already makes a claim, a compare-and-set that admits one caller (or an
//     INSERT … ON CONFLICT DO NOTHING) whose row count decides who goes on,
//     and writes the rest only for the winner (see unfencedwrite): the
//     database serializes it already, drop the lock;
//   - makes one INSERT that a UNIQUE key refuses a second time (the schema's,
//     an ORM tag's, or a key goctl's model supplies): the key serializes it
//     already, drop the lock and take the duplicate-key error as done;
//   - otherwise: SELECT … FOR UPDATE in a transaction.
//
// Bad:
//
//	if ok, _ := rdb.SetNX(ctx, "lock:order:"+id, token, 10*time.Second).Result(); !ok { return }
//	defer unlock.Run(ctx, rdb, []string{"lock:order:" + id}, token)
//	db.QueryRowContext(ctx, `SELECT status FROM orders WHERE id = $1`, id).Scan(&status)
//	if status == "PENDING" {
//		db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id)
//	}
//
// Good, and no lock:
//
//	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
//	if n, _ := res.RowsAffected(); n == 0 { return errAlreadyDone }
//
// Why the lock hurts rather than helps:
//
//	worker A: lock ─ SELECT PENDING ─ GC pause …………………… UPDATE PAID, +10 points
//	worker B:             TTL ends ─ lock ─ SELECT PENDING ─ UPDATE PAID, +10 points
//
// The conditional UPDATE above lets exactly one of them through, pause or no
// pause, and needs no lock.
//
// Look-alikes left alone: a region that also calls an HTTP or gRPC API,
// publishes to a broker, writes a file, or calls something lockvet cannot see
// into (the lock may be earned there), at any depth of calls; a region whose
// write is fenced by the lock's token; and a SET NX that is never released (a
// dedup marker, not a lock).
//
// No fix is suggested: the rewrite changes the shape of the code, and only its
// author can say the external effects are truly absent.
//
// Options: none of its own; locks taken by in-house helpers named with
// -lockmodel.acquire and -lockmodel.release are judged too.
package needlesslock
