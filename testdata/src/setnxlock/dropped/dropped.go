// Package dropped has helpers that drop whether they acquired: a lock whose
// release is deferred is a lock nonetheless, and its result is reported
// dropped in the helper; a cache filled if absent and invalidated later is no
// lock.
package dropped

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func lock(ctx context.Context, rdb *redis.Client, key string) error {
	_, err := rdb.SetNX(ctx, key, "1", 5*time.Minute).Result() // want `lock value is a constant` `lock result dropped: the work runs whether or not the lock was taken; return whether it was acquired`
	return err
}

func unlock(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Del(ctx, key).Err()
}

func Handle(ctx context.Context, rdb *redis.Client, id string) error {
	if err := lock(ctx, rdb, "lock:stock:"+id); err != nil {
		return err
	}
	defer func() { _ = unlock(ctx, rdb, "lock:stock:"+id) }()
	return nil
}

// placeholder marks a missing row, if nobody else did; invalidate drops it.
func placeholder(ctx context.Context, rdb *redis.Client, key string) error {
	_, err := rdb.SetNX(ctx, key, "*", time.Minute).Result()
	return err
}

func invalidate(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Del(ctx, key).Err()
}

func Lookup(ctx context.Context, rdb *redis.Client, id string) error {
	if err := placeholder(ctx, rdb, "row:"+id); err != nil {
		return err
	}
	return invalidate(ctx, rdb, "row:"+id)
}
