// Package ctorvalue makes locks of another package with a value of its
// choosing: a constant given to the constructor is reported where it is
// given, a unique one is not.
package ctorvalue

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"testcases/setnxlock/ctorvalue/redislock"
)

func work() {}

func shared(ctx context.Context, rdb *redis.Client, id string) {
	lock := redislock.New(rdb, "redpack:"+id, "red_pack", 3*time.Second) // want `lock value given to New is a constant`
	if lock.TryLock(ctx) {
		defer lock.Unlock(ctx)
		work()
	}
}

func unique(ctx context.Context, rdb *redis.Client, id string) {
	lock := redislock.New(rdb, "redpack:"+id, uuid.NewString(), 3*time.Second)
	if lock.TryLock(ctx) {
		defer lock.Unlock(ctx)
		work()
	}
}
