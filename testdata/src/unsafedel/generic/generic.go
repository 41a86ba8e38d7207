// Package generic takes its lock through methods of a generic type, and
// releases it in a deferred literal that takes the key as a parameter.
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
	return c.rdb.Del(ctx, key).Err()
}

func (c *cacheClient[T]) rebuild(ctx context.Context, key string, load func() T) (err error) {
	ok, err := c.tryLock(ctx, "lock:"+key)
	if err != nil || !ok {
		return err
	}
	defer func(c *cacheClient[T], ctx context.Context, k string) {
		if e := c.unlock(ctx, k); e != nil { // want `lock released in unlock with plain DEL`
			err = e
		}
	}(c, ctx, "lock:"+key)
	load()
	return nil
}
