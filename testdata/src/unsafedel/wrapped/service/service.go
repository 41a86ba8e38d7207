// Package service uses package locker: its locks are seen through facts.
package service

import (
	"context"
	"time"

	"github.com/google/uuid"

	"testcases/unsafedel/wrapped/locker"
)

func work() {}

func CompleteOrder(ctx context.Context, l *locker.Locker, id string) {
	token := uuid.NewString()
	if !l.TryLock(ctx, id, token) {
		return
	}
	defer l.Unlock(ctx, id) // want `lock released in Unlock with plain DEL`
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
	defer c.Del(ctx, "stats:"+id, "lock:job:"+id) // want `lock released in Del with plain DEL`
	work()
	return nil
}

// Two wrappers deep.
func ThroughForget(ctx context.Context, c *locker.Cache, id string) error {
	token := uuid.NewString()
	if ok, err := c.SetNX(ctx, "lock:job:"+id, token, time.Minute); err != nil || !ok {
		return err
	}
	defer c.Forget(ctx, "lock:job:"+id) // want `lock released in Forget with plain DEL`
	work()
	return nil
}
