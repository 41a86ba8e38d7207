// Package lockmap is a lock service that keeps the locks it takes in a map
// by key, so that Unlock(ctx, key) needs only the key.
package lockmap

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
)

type Locker struct {
	client *redislock.Client
	locks  sync.Map
}

func (l *Locker) Lock(ctx context.Context, key string) error {
	lock, err := l.client.Obtain(ctx, key, 10*time.Second, nil)
	if err != nil {
		return err
	}
	l.locks.Store(key, lock)
	return nil
}

func (l *Locker) Unlock(ctx context.Context, key string) error {
	v, ok := l.locks.LoadAndDelete(key)
	if !ok {
		return redislock.ErrLockNotHeld
	}
	return v.(*redislock.Lock).Release(ctx) // want `lock released is whichever one Locker.locks holds under the key: a holder whose lease ran out acts on the next holder's`
}

func (l *Locker) Extend(ctx context.Context, key string) error {
	v, ok := l.locks.Load(key)
	if !ok {
		return redislock.ErrLockNotHeld
	}
	lock, ok := v.(*redislock.Lock)
	if !ok {
		return redislock.ErrLockNotHeld
	}
	return lock.Refresh(ctx, 10*time.Second, nil) // want `lock refreshed is whichever one Locker.locks holds`
}

type Mutexes struct {
	rs      *redsync.Redsync
	mu      sync.Mutex
	mutexes map[string]*redsync.Mutex
}

func (m *Mutexes) Lock(ctx context.Context, key string) error {
	mx := m.rs.NewMutex(key)
	if err := mx.LockContext(ctx); err != nil {
		return err
	}
	m.mu.Lock()
	m.mutexes[key] = mx
	m.mu.Unlock()
	return nil
}

func (m *Mutexes) Unlock(ctx context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	mx := m.mutexes[key]
	if mx == nil {
		return errors.New("not locked")
	}
	delete(m.mutexes, key)
	_, err := mx.UnlockContext(ctx) // want `lock released is whichever one Mutexes.mutexes holds`
	return err
}

// Per call: a map made for one batch holds that batch's own locks.
func lockAll(ctx context.Context, c *redislock.Client, keys []string) error {
	held := make(map[string]*redislock.Lock)
	for _, k := range keys {
		lock, err := c.Obtain(ctx, k, 10*time.Second, nil)
		if err != nil {
			break
		}
		held[k] = lock
	}
	for _, k := range keys {
		if lock := held[k]; lock != nil {
			lock.Release(ctx)
		}
	}
	return nil
}

// A registry of mutexes made but not locked when stored: each caller locks
// and unlocks the one object it was handed.
type Registry struct {
	rs      *redsync.Redsync
	mutexes sync.Map
}

func (r *Registry) Mutex(key string) *redsync.Mutex {
	v, _ := r.mutexes.LoadOrStore(key, r.rs.NewMutex(key))
	return v.(*redsync.Mutex)
}

func (r *Registry) Do(ctx context.Context, key string, work func()) error {
	mx := r.Mutex(key)
	if err := mx.LockContext(ctx); err != nil {
		return err
	}
	defer mx.UnlockContext(ctx)
	work()
	return nil
}
