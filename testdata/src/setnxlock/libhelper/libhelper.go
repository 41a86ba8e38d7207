// Package libhelper takes a lock library's lock in a helper that returns the
// lock object with whether it was taken: the caller holds the object and
// must test the flag before the work.
package libhelper

import (
	"context"
	"errors"
	"fmt"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

func work() {}

func lock(ctx context.Context, store *redis.Redis, id int64) (*redis.RedisLock, bool) {
	l := redis.NewRedisLock(store, fmt.Sprint("job:", id))
	ok, err := l.AcquireCtx(ctx)
	return l, err == nil && ok
}

func mustLock(ctx context.Context, store *redis.Redis, id int64) (*redis.RedisLock, error) {
	l := redis.NewRedisLock(store, fmt.Sprint("job:", id))
	ok, err := l.AcquireCtx(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("busy")
	}
	return l, nil
}

func ignored(ctx context.Context, store *redis.Redis, id int64) {
	l, _ := lock(ctx, store, id) // want `lock result ignored`
	defer l.ReleaseCtx(ctx)
	work()
}

func checked(ctx context.Context, store *redis.Redis, id int64) {
	l, ok := lock(ctx, store, id)
	if !ok {
		return
	}
	defer l.ReleaseCtx(ctx)
	work()
}

func checkedErr(ctx context.Context, store *redis.Redis, id int64) error {
	l, err := mustLock(ctx, store, id)
	if err != nil {
		return err
	}
	defer l.ReleaseCtx(ctx)
	work()
	return nil
}
