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
// closure called there, or in a function given to a function that runs it
// under a lock it holds (a literal, a function or a method value:
// WithLock(ctx, key, func() error { … }), RunWithLock(ctx, key, p.purge),
// and a scheduler that hands its job on to such a runner), is fine when:
//
//  1. it is fenced by a fencing token: it stores the token and its WHERE
//     refuses an older one (SET fencing_token = $2 … WHERE id = $1 AND
//     fencing_token < $2), with the same placeholder (or the same value) in
//     both places, and the value that placeholder binds is a token the lock
//     service issued atomically with this lock's grant;
//  2. it is a compare-and-set: its WHERE pins the prior state of something its
//     SET changes (see below), or it is an INSERT … ON CONFLICT DO NOTHING
//     (but not ON CONFLICT (id) on an id drawn fresh for the insert, a uuid
//     made in Go, gen_random_uuid() or a serial default: that conflict never
//     fires), or an INSERT that goctl (go-zero's model generator) wrote for a table
//     whose key the caller supplies, which a second insert of the row fails on;
//  3. it runs in a transaction that first locked the row (SELECT … FOR UPDATE),
//     also in a function given the transaction (a repository method that
//     locks the row on the handle it is passed, then writes it);
//  4. another write decided that this caller won: a compare-and-set that admits
//     one caller (or an INSERT … ON CONFLICT DO NOTHING) whose row count the
//     code branches on, with this write on the branch a count of 1 takes and 0
//     does not, or before it in its transaction, which the loser does not
//     commit. The claim may be made in a callee: a function whose claim
//     decides its result (ErrAlreadyPaid on 0 rows, false, or the row count
//     itself) carries that as a fact, and code on the caller's winning branch
//     is serialized. Code on the losing branch, or after the caller drops the
//     answer (_ = repo.MarkPaid(…), or only logs it), is not, and the claim is
//     then reported as ignored.
//
// In cases 3 and 4, a call of a function that is given the transaction counts
// as a write in it.
//
// What counts as a fencing token. The value the compared placeholder binds is
// followed back, through variables, conversions, reply readers (Val, Int64,
// redigo's converters), strconv formatting and the parameters of the functions
// that make the write. It is a fencing token when it comes from:
//
//   - the script that takes the lock and INCRs a counter in the same script
//     (it returns the count);
//   - etcd's revision of the lock (Mutex.Header().Revision, GetRevision());
//   - an in-house lock function that returns one of those (its fact says which
//     result carries the token).
//
// It is reported, naming what it is, when it comes from an INCR sent in a
// round trip of its own after the lock was taken (a holder that pauses before
// its INCR draws a larger token than its successor, and its stale write
// passes), from the value the lock stores (an owner id), from a UUID, a
// timestamp, a random number or a constant, or from a parameter of the
// function that takes the lock (it cannot have come from this grant). A value
// lockvet cannot follow (a struct field, a map, a call it does not know) is
// taken as a token. A write that compares the token column with another
// operand than the one it stores, or never stores the token, is reported too.
// -fence names the token columns; a comparison on any other column is judged
// as a compare-and-set.
//
// What counts as a compare-and-set. The WHERE pins the prior state of a column
// the SET changes:
//
//   - equality with an expected state or a value read before (status =
//     'PENDING' → 'PAID', balance = $old → $new, version = $v → version + 1),
//     IN a list of states, IS NULL (claimed_by IS NULL → $me), or a negative
//     test that excludes the value written (status <> 'PAID' → 'PAID');
//   - an ordering the write advances (version < $n storing $n);
//   - a lapsed lease taken over (locked_until < now());
//   - a relative change guarded by its own delta (SET stock = stock - $1
//     WHERE stock >= $1, stock - 1 WHERE stock > 0, used + 1 WHERE used < cap).
//
// Only the first and third let one caller through (a claim, case 4). A WHERE
// that tests a changed column without pinning it is a lost update and is
// reported: SET balance = $2 WHERE id = $1 AND balance >= 0, with $2 computed
// from an earlier read, lets a stale holder overwrite the newer balance.
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
//	rdb.SetNX(ctx, key, owner, 10*time.Second)
//	token := rdb.Incr(ctx, "fence:"+key).Val() // drawn after the grant
//	db.ExecContext(ctx, `UPDATE orders SET status = 'PAID', fencing_token = $2
//		WHERE id = $1 AND fencing_token < $2`, id, token)
//
// Good:
//
//	token, err := acquire.Run(ctx, rdb, []string{key, "fence:" + key}, owner, 10000).Int64() // SET NX and INCR in one script
//	…
//	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID', fencing_token = $2
//		WHERE id = $1 AND fencing_token < $2`, id, token)
//	if n, _ := res.RowsAffected(); n != 1 { … a newer holder won … }
//
// When the lock's grant yields a token that is in scope and the statement is a
// constant PostgreSQL UPDATE assigned as `_, err = db.ExecContext(…)` (or its
// result named), the suggested fix adds the fence and a check that turns a
// refused write into an error. DELETEs are not reported: repeating one is
// harmless. gorm's Save and Updates with a struct write by primary key
// whatever the row holds: reported, unless a Where of their own may pin the
// columns the struct sets. Writes that lockvet cannot read (SQL text built at
// run time) are not reported, nor is an UPDATE whose WHERE it cannot read at
// all (a top-level OR, a condition spliced into a fmt.Sprintf template).
//
// Flags:
//
//	-fence=fencing_token   comma-separated names of fencing-token columns: a
//	                       comparison on them must carry a token issued with
//	                       the grant; the fix writes the first
//
// Locks taken by in-house helpers named with -lockmodel.acquire and
// -lockmodel.release (a lock service lockvet cannot see into) are judged too.
package unfencedwrite
