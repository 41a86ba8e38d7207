// Package ctortoken releases a lock of another package whose owner token the
// caller gave its constructor: a constant token matches every holder.
package ctortoken

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"testcases/setnxlock/ctorvalue/redislock"
)

func work() {}

func shared(ctx context.Context, rdb *redis.Client, id string) error {
	lock := redislock.New(rdb, "redpack:"+id, "red_pack", 3*time.Second)
	if !lock.TryLock(ctx) {
		return nil
	}
	work()
	return lock.Unlock(ctx) // want `compare-and-delete in Unlock with a constant token`
}

func unique(ctx context.Context, rdb *redis.Client, id string) error {
	lock := redislock.New(rdb, "redpack:"+id, uuid.NewString(), 3*time.Second)
	if !lock.TryLock(ctx) {
		return nil
	}
	work()
	return lock.Unlock(ctx)
}
