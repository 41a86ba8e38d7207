// Package generic takes its lock through methods of a generic type, and
// releases it in a deferred literal that takes the key as a parameter. The
// plain DEL is the wrapper's own: it is reported there, once.
package generic

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type cacheClient[T any] struct{ rdb *redis.Client }

func (c *cacheClient[T]) tryLock(ctx context.Context, key string) (bool, error) {
	return c.rdb.SetNX(ctx, key, "1", 10*time.Second).Result()
}

func (c *cacheClient[T]) unlock(ctx context.Context, key string) error {
	return c.rdb.Del(ctx, key).Err() // want `lock released with plain DEL`
}

func (c *cacheClient[T]) rebuild(ctx context.Context, key string, load func() T) (err error) {
	ok, err := c.tryLock(ctx, "lock:"+key)
	if err != nil || !ok {
		return err
	}
	defer func(c *cacheClient[T], ctx context.Context, k string) {
		if e := c.unlock(ctx, k); e != nil { // reported in unlock, which decides it
			err = e
		}
	}(c, ctx, "lock:"+key)
	load()
	return nil
}
