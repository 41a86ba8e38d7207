// Package setnxlock defines an Analyzer that checks how Redis locks are acquired.
//
// # Analyzer setnxlock
//
// setnxlock: report Redis lock acquisitions that cannot work as a lock
//
// Why it matters: a lock's TTL can run out while its holder is still working.
//
//	worker A: SETNX lock 1 ─ GC pause ………………………… DEL lock (deletes B's!)
//	worker B:                  TTL ends ─ SETNX lock 1 ─ work ……
//	worker C:                                         SETNX lock 1 ─ work ……
//
// With a constant value, A cannot tell that the lock it deletes is B's; without
// a TTL, a holder that crashes blocks everyone forever.
//
// A lock is a SET NX (SetNX, SetArgs with Mode "NX", Do("SET", k, v, "NX", …),
// a Lua set-if-absent script, or a wrapper around one) whose key the code later
// releases: in the same function, or, for a fixed key, in another function of
// the package (a job's acquireLock and releaseLock, called around the work by
// tick). setnxlock reports, at the acquisition:
//
//   - a constant value: every holder stores the same value, so no release can
//     check that it deletes its own lock. So is a field set to one constant
//     or never set, and a value computed from the key alone (the key itself,
//     the order id under "lock:"+id);
//   - a value set once per lock object: a lock type that takes each key from
//     its caller (TryLock(ctx, key, ttl)) but stores a field only its
//     constructor sets (the hostname, an instance uuid). Every acquisition
//     through the object stores that value, so a holder whose lease ran out
//     matches the next acquisition and deletes or extends it. An object made
//     for one key, a value drawn at each acquisition, and a leader election
//     on one fixed key are not reported;
//   - no TTL: a holder that crashes keeps the lock forever;
//   - a TTL under a millisecond, written as a constant time.Duration: a bare
//     number given as a Duration counts nanoseconds (SetNX(ctx, k, v, 15) is
//     fifteen nanoseconds, which go-redis sends as PX 1), so the lock is gone
//     before the work starts. Reported where the number is written;
//   - SETNX followed by a separate EXPIRE: a crash between the two leaves a lock
//     without TTL (fixed by passing the TTL to SetNX); inside one transaction the
//     EXPIRE also extends another holder's lock whenever the SETNX failed;
//   - an ignored result: the work runs whether or not the lock was taken (for
//     SetNX, checking only the error ignores the result: a taken lock is false
//     with a nil error). Reading the key back at once and comparing it with the
//     stored value (SetNX(ctx, k, id, ttl), then Get(ctx, k) == id) checks it;
//   - a failure that does not stop the work: the branch taken when the lock
//     was not acquired only logs, or is empty, and falls through into the
//     work (if err != nil { log.Println(err) }, if ok { defer unlock() }
//     or if lease != nil { defer lease.Release() } before the work, or a
//     test for one failure that only logs it:
//     case errors.Is(err, redislock.ErrNotObtained): fmt.Println(…); a
//     logging library, a logger type's or an in-house log package's
//     levels only log), or
//     that does something else (re-enqueues the event) and then rejoins
//     the work with nothing telling the two paths apart. A branch that
//     returns, continues, retries, sets a flag that later decides, or calls
//     Fatal or Panic gates the work, and so does a test after which the
//     function only returns;
//   - an error that does not stop the work when the flag does ("fail
//     open"): if err != nil { log } else if !ok { return } else { defer
//     unlock() }, then the work. When Redis cannot be reached, every caller
//     runs the work without the lock. A log that rejoins where the flag is
//     tested next (if err != nil { log }; if !ok { return }) stops it there;
//   - an error compared only with the not-set reply (redis.Nil, redis.ErrNil):
//     a network error then passes as acquired.
//
// Bad:
//
//	if rdb.SetNX(ctx, "lock:order:"+id, 1, 0).Val() { … }
//
// Good:
//
//	token := uuid.NewString()
//	ok, err := rdb.SetNX(ctx, "lock:order:"+id, token, 10*time.Second).Result()
//	if err != nil || !ok {
//		return errLocked
//	}
//
// A SET NX whose key is never released is not a lock and is never reported:
// dedup and idempotency markers, run-once guards, throttles, create-if-absent
// records, and leases meant to expire on their own. One that a goroutine
// started after it renews (go renewLoop(ctx, key, value)) is a lock held to
// the end of the function: a cron runner that lets its key expire.
//
// Where a wrapper's problem is reported: a problem the wrapper alone decides
// (a constant value, a missing TTL, or SETNX then EXPIRE inside TryLock or an
// in-house client's SetNX, a plain DEL inside Unlock) is reported inside the wrapper, once, when the wrapper is in the
// package of the code that pairs it into a lock, or when a method of the same
// type acquires the key; for a wrapper of another package, inside it too
// when `lockvet ./...` analyses that package as well (its link step tells the
// wrapper's package that a caller pairs it into a lock), else at the call,
// naming it (in utils.TryLock), once per calling function. A problem the
// caller's argument decides (a constant it passes) is reported at the call;
// when it passes it to the constructor of the lock object whose field the
// wrapper stores (redislock.New(rdb, key, "red_pack", ttl), then
// lock.TryLock(ctx)), at the constructor call, where the constant is chosen.
//
// Options: none of its own. In-house lock helpers named with
// -lockmodel.acquire and -lockmodel.release are taken as correct acquisitions;
// only whether their result is used is checked.
package setnxlock
