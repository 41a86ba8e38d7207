// Package unfencedwrite defines an Analyzer that checks SQL writes made while a
// Redis lock is held.
//
// # Analyzer unfencedwrite
//
// unfencedwrite: report SQL writes under a TTL lock that the database would accept from a holder whose lease expired
//
// A TTL lock cannot stop its holder from writing after the lease ran out: a GC
// pause or a slow call outlives the TTL, a second worker takes the lock and
// writes, then the first wakes up and writes too.
//
//	worker A: acquire ─ pause ……………………………………… UPDATE (stale!)
//	lease:    ├──── 10s ────┤
//	worker B:                 acquire ─ UPDATE ─ release
//
// Only the storage can refuse the stale write (Kleppmann, "How to do distributed
// locking", 2016). A write between an acquisition and its release (or the end of
// the function, for a deferred release), directly or inside a function or
// closure called there, or in a function literal given to a function that runs
// it under a lock it holds (WithLock(ctx, key, func() error { … })), is fine
// when:
//
//  1. it is fenced: its WHERE compares a fencing-token column with the lock's
//     token, and it stores the token (SET fencing_token = $1 … WHERE id = $2 AND
//     fencing_token < $1), the token coming from a monotonic source tied to the
//     lock (a Lua script that INCRs, an INCR taken under the lock, etcd's
//     revision);
//  2. it is conditional: its WHERE tests a column its SET assigns (status =
//     'PENDING' → 'PAID', version = $v → version + 1, stock > 0 → stock - 1), or
//     it is an INSERT … ON CONFLICT;
//  3. it runs in a transaction that first locked the row (SELECT … FOR UPDATE);
//  4. another write decided that this caller won: a conditional write (or an
//     INSERT … ON CONFLICT DO NOTHING) whose row count the code branches on,
//     with this write on the branch a count of 1 takes and 0 does not, or
//     before it in its transaction, which the loser does not commit.
//
// Case 4 is the claim: only the winner goes on.
//
//	res, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
//	…
//	if n, _ := res.RowsAffected(); n != 1 { return errAlreadyPaid }
//	tx.ExecContext(ctx, `UPDATE accounts SET points = points + 10 WHERE id = $1`, id)
//
// In cases 3 and 4, a call of a function that is given the transaction counts
// as a write in it.
//
// Any other INSERT, UPDATE, REPLACE or MERGE is reported. A fenced or
// conditional write whose outcome is never looked at (RowsAffected, the rows an
// UPDATE … RETURNING returns) is reported too: the database refuses the stale
// write, and the code goes on as if it had won. An INSERT … ON CONFLICT DO
// NOTHING is exempt: the row is there either way.
//
// Bad:
//
//	db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id)
//
// Good:
//
//	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID', fencing_token = $2
//		WHERE id = $1 AND fencing_token < $2`, id, token)
//	if n, _ := res.RowsAffected(); n != 1 { … a newer holder won … }
//
// When the lock yields a token that is in scope and the statement is a constant
// PostgreSQL UPDATE, the suggested fix adds the fence. DELETEs are not reported:
// repeating one is harmless. Writes that lockvet cannot read (SQL text built at
// run time, gorm Updates with a struct, Save) are not reported either, nor is
// an UPDATE whose WHERE it cannot read at all (a top-level OR, a condition
// spliced into a fmt.Sprintf template).
//
// Flags:
//
//	-fence=fencing_token   comma-separated names of fencing-token columns; the
//	                       fix writes the first
//
// Locks taken by in-house helpers named with -lockmodel.acquire and
// -lockmodel.release (a lock service lockvet cannot see into) are judged too.
package unfencedwrite
