// Package unsafedel defines an Analyzer that checks how Redis locks are released.
//
// # Analyzer unsafedel
//
// unsafedel: report Redis lock releases that do not check ownership atomically
//
// A lock's TTL can run out while its holder is still working (a GC pause, a slow
// query); another worker then takes the lock. A release that does not check, in
// the same command, that the lock is still the caller's deletes the new holder's
// lock, and a third worker walks in. unsafedel reports, on a key that the code
// acquired with SET NX (directly or through a wrapper):
//
//   - a plain DEL, UNLINK, GETDEL or EXPIRE 0;
//   - GET, compare in Go, then DEL: two round trips, and the lock can change
//     hands between them;
//   - a compare-and-delete script called with a constant token, which every
//     holder matches (a literal, a field set to one constant or never set,
//     or a value computed from the key alone, as the key itself), or with a
//     field its lock object's constructor set once while the object locks
//     whatever key its caller names: a holder whose lease ran out matches
//     the next acquisition through the same object;
//   - a release deferred before the acquisition's result is tested (ok, err
//     := lock(); defer unlock(); if !ok { return }): a caller that lost the
//     race deletes the winner's lock. Reported at the call when the
//     release's plain delete is reported in its wrapper;
//   - a release through such a wrapper where the lock was not acquired (if
//     err := lock(); err != nil { unlock(); continue }): the lock it deletes
//     is always the holder's. A compare-and-delete there is harmless, and a
//     delete after an error of a call that also returns the acquired flag
//     may be cleanup of a key the lost reply set: neither is reported;
//   - an EXPIRE or PEXPIRE refresh, or a SET of the key with a new TTL,
//     without an owner check, which can extend another holder's lock; and
//     either after a GET that found the owner's value, in two round trips (a
//     SET made when the value read differs updates a cache, and is not
//     reported). A refresh counts in a function of its own too, when its key
//     is fixed (constants and package-level names) and another function of
//     the package acquires that key with a TTL short of an hour and tests
//     the result: a leader's lease renewed on a ticker and never released;
//   - a release or refresh of the lock object a map holds under the key, in
//     a service that stores each lock it takes there (Lock(ctx, key) puts
//     the redislock.Lock or redsync.Mutex in a sync.Map or a map field,
//     Unlock(ctx, key) looks it up): two holders of a key in one process
//     share the entry, so one whose lease ran out releases the lock of the
//     one who took it next. A map made for one call is not shared.
//
// Bad:
//
//	defer rdb.Del(ctx, key)
//
// Good:
//
//	var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then
//		return redis.call("del", KEYS[1]) else return 0 end`)
//	defer unlock.Run(ctx, rdb, []string{key}, token)
//
// or, on servers that have it, DelExArgs with Mode "IFEQ". When the owner value is
// in scope at a go-redis or redigo DEL, the suggested fix does this rewrite.
//
// Deletes of keys that no SET NX acquired (cache invalidation, dedup markers) are
// never reported, nor are the deletes of a once-marker: a key set if absent
// that only an error deletes again, or one with a TTL of an hour or more
// that the path on which the work goes through leaves in place (a dedupe key
// a failed publish deletes to let a retry through). A key that lives for a
// constant under an hour and that only a failure deletes is a lease given
// back, not a marker: by the time the failure is known it may be another
// holder's, so its plain DEL is reported.
//
// Where a wrapper's problem is reported: a problem the wrapper alone decides
// (a constant value or a missing TTL inside TryLock, a plain DEL inside
// Unlock) is reported inside the wrapper, once, when the wrapper is in the
// package of the code that pairs it into a lock, or when a method of the same
// type acquires the key; for a wrapper of another package, inside it too
// when `lockvet ./...` analyses that package as well (its link step tells the
// wrapper's package that a caller pairs it into a lock), else at the call,
// naming it (in utils.TryLock), once per calling function. A problem the
// caller's argument decides (a constant it passes) is reported at the call.
// A command forwarder (a client's own Del(ctx, keys...) or SetNX(ctx, key,
// value, ttl), named after the command, every operand its caller's) decides
// nothing about a lock: what the caller does with it is reported at the call.
//
// Options: none of its own. Releases by in-house helpers named with
// -lockmodel.release are taken as owner-checked.
package unsafedel
