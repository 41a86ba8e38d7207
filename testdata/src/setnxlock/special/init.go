// Package special holds code a linter meets on real projects: init functions,
// generics, generated files, build tags.
package special

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func init() {
	ctx := context.Background()
	if rdb.SetNX(ctx, "lock:boot", 1, time.Minute).Val() { // want `lock value is a constant`
		defer rdb.Del(ctx, "lock:boot")
		work()
	}
}

func work() {}

// Generic code: the lock key comes from a type parameter's method.
type Keyer interface{ Key() string }

func WithLock[K Keyer](ctx context.Context, k K, token string) {
	if !rdb.SetNX(ctx, k.Key(), token, 0).Val() { // want `lock has no TTL`
		return
	}
	defer rdb.Del(ctx, k.Key())
	work()
}
