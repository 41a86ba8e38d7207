// Package service uses package locker: its locks are seen through facts.
package service

import (
	"context"

	"testcases/setnxlock/wrapped/locker"
)

func work() {}

func CompleteOrder(ctx context.Context, l *locker.Locker, id string) {
	if !l.TryLock(ctx, id) { // want `lock value is a constant in locker.Locker.TryLock: holders cannot be told apart; store a unique token`
		return
	}
	defer l.Unlock(ctx, id, "")
	work()
}

func NoTTL(ctx context.Context, l *locker.Locker, id string) {
	if !l.TryLockFor(ctx, id, 0) { // want `lock has no TTL in TryLockFor`
		return
	}
	defer l.Unlock(ctx, id, "")
	work()
}

// Different names: not one lock, nothing paired, nothing reported.
func Unpaired(ctx context.Context, l *locker.Locker, a, b string) {
	if !l.TryLock(ctx, a) {
		return
	}
	defer l.Unlock(ctx, b, "")
	work()
}

// The mutex's own problem was reported in package locker.
func UseMutex(ctx context.Context, m *locker.Mutex) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	work()
	return nil
}

func IgnoreMutex(ctx context.Context, m *locker.Mutex) {
	m.Lock(ctx) // want `lock result ignored`
	defer m.Unlock(ctx)
	work()
}
