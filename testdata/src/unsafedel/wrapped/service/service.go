// Package service uses package locker: its locks are seen through facts.
package service

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"testcases/unsafedel/wrapped/locker"
)

func work() {}

func CompleteOrder(ctx context.Context, l *locker.Locker, id string) {
	token := uuid.NewString()
	if !l.TryLock(ctx, id, token) {
		return
	}
	defer l.Unlock(ctx, id) // want `lock released in locker.Locker.Unlock with plain DEL`
	work()
}

func TwoSteps(ctx context.Context, l *locker.Locker, id string) {
	token := uuid.NewString()
	if !l.TryLock(ctx, id, token) {
		return
	}
	defer l.UnlockIfOwner(ctx, id, token) // reported where UnlockIfOwner is declared
	work()
}

// Unlock alone is a delete, as a cache helper's would be: not a lock release.
func Evict(ctx context.Context, l *locker.Locker, id string) {
	l.Unlock(ctx, id)
}

// The mutex's problems were reported in package locker.
func UseMutex(ctx context.Context, m *locker.Mutex) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	work()
	return nil
}

// A lock taken and released through an in-house client that forwards keys.
func ThroughCache(ctx context.Context, c *locker.Cache, id string) error {
	token := uuid.NewString()
	if ok, err := c.SetNX(ctx, "lock:job:"+id, token, time.Minute); err != nil || !ok {
		return err
	}
	defer c.Del(ctx, "stats:"+id, "lock:job:"+id) // want `lock released in locker.Cache.Del with plain DEL`
	work()
	return nil
}

// Two wrappers deep.
func ThroughForget(ctx context.Context, c *locker.Cache, id string) error {
	token := uuid.NewString()
	if ok, err := c.SetNX(ctx, "lock:job:"+id, token, time.Minute); err != nil || !ok {
		return err
	}
	defer c.Forget(ctx, "lock:job:"+id) // want `lock released in locker.Cache.Forget with plain DEL`
	work()
	return nil
}

// A lease that remembers its key; its Release is a plain DEL.
func WithLease(ctx context.Context, ls *locker.Leases, id string) error {
	lease, err := ls.Acquire(ctx, "lock:lease:"+id)
	if err != nil {
		return err
	}
	defer lease.Release(ctx) // want `lock released in locker.Lease.Release with plain DEL`
	work()
	return nil
}

// The owner-checked release of the same lease.
func WithLeaseChecked(ctx context.Context, ls *locker.Leases, id string) error {
	lease, err := ls.Acquire(ctx, "lock:lease:"+id)
	if err != nil {
		return err
	}
	defer lease.ReleaseIfOwner(ctx)
	work()
	return nil
}

// Helpers that return their unlock func.
func WithUnlockFunc(ctx context.Context, rdb *redis.Client, id string) error {
	unlock, err := locker.Lock(ctx, rdb, "lock:fn:"+id)
	if err != nil {
		return err
	}
	defer unlock() // reported in Lock, which decides it
	work()
	return nil
}

func WithCheckedUnlockFunc(ctx context.Context, rdb *redis.Client, id string) error {
	unlock, err := locker.LockChecked(ctx, rdb, "lock:fn:"+id)
	if err != nil {
		return err
	}
	defer unlock()
	work()
	return nil
}

// Two calls of another package's wrapper in one function: said once.
func TwoReleases(ctx context.Context, l *locker.Locker, id string) {
	token := uuid.NewString()
	if !l.TryLock(ctx, id, token) {
		return
	}
	if id == "" {
		l.Unlock(ctx, id) // want `lock released in locker.Locker.Unlock with plain DEL`
		return
	}
	work()
	l.Unlock(ctx, id)
}

// Through a client whose commands run in a breaker's closure.
func ThroughBreaker(ctx context.Context, c *locker.Client, id string) error {
	token := uuid.NewString()
	if ok, err := c.SetnxEx(ctx, "lock:brk:"+id, token, 10); err != nil || !ok {
		return err
	}
	defer c.Del(ctx, "lock:brk:"+id) // want `lock released in locker.Client.Del with plain DEL`
	work()
	return nil
}
