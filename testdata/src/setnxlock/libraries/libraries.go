// Package libraries holds lock-library acquisitions: their values and TTLs are
// the library's business, but ignoring whether the lock was taken is not.
package libraries

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/redis/rueidis/rueidislock"
	"github.com/zeromicro/go-zero/core/stores/redis"
	"go.etcd.io/etcd/client/v3/concurrency"
)

func work() {}

func redsyncIgnored(rs *redsync.Redsync, id string) {
	m := rs.NewMutex("order:" + id)
	m.Lock() // want `lock result ignored`
	defer m.Unlock()
	work()
}

func redsyncChecked(rs *redsync.Redsync, id string) error {
	m := rs.NewMutex("order:" + id)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	work()
	return nil
}

func bsmObtain(ctx context.Context, locker *redislock.Client, id string) error {
	lock, err := locker.Obtain(ctx, "order:"+id, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	work()
	return nil
}

func goZero(store *redis.Redis, id string) {
	l := redis.NewRedisLock(store, "order:"+id)
	l.SetExpire(10)
	if ok, err := l.Acquire(); err != nil || !ok {
		return
	}
	defer l.Release()
	work()
}

func goZeroIgnored(store *redis.Redis, id string) {
	l := redis.NewRedisLock(store, "order:"+id)
	l.Acquire() // want `lock result ignored`
	defer l.Release()
	work()
}

func rueidis(ctx context.Context, locker rueidislock.Locker, id string) error {
	ctx, cancel, err := locker.WithContext(ctx, "order:"+id)
	if err != nil {
		return err
	}
	defer cancel()
	_ = ctx
	work()
	return nil
}

func etcd(ctx context.Context, s *concurrency.Session, id string) error {
	m := concurrency.NewMutex(s, "/order/"+id)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	work()
	return nil
}

// The error of an etcd mutex's Lock dropped: the callback runs whether or
// not it was taken. A '#' in the key is part of the key.
func etcdDropped(ctx context.Context, s *concurrency.Session, prefix string, t func() error) error {
	m := concurrency.NewMutex(s, prefix+"#lock")
	m.Lock(ctx) // want `lock result ignored`
	defer m.Unlock(ctx)
	return t()
}

func redsyncLogged(rs *redsync.Redsync, id string) {
	m := rs.NewMutex("order:" + id)
	if err := m.Lock(); err != nil { // want `lock failure does not stop the work`
		println("lock:", err.Error())
	}
	defer m.Unlock()
	work()
}
