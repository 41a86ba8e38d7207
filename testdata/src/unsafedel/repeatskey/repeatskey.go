// Package repeatskey releases with a compare-and-delete whose token is
// computed from the key alone: every holder of the key matches it.
package repeatskey

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func work() {}

func keyAsToken(ctx context.Context, rdb *redis.Client, id string) {
	key := "lock:order:" + id
	ok, err := rdb.SetNX(ctx, key, uuid.NewString(), 10*time.Second).Result()
	if err != nil || !ok {
		return
	}
	defer rdb.Eval(ctx, unlock, []string{key}, key) // want `compare-and-delete with a token that repeats the key: every holder matches`
	work()
}

func idAsToken(ctx context.Context, rdb *redis.Client, id string) {
	ok, err := rdb.SetNX(ctx, "lock:user:"+id, uuid.NewString(), 10*time.Second).Result()
	if err != nil || !ok {
		return
	}
	defer rdb.Eval(ctx, unlock, []string{"lock:user:" + id}, id) // want `compare-and-delete with a token that repeats the key`
	work()
}

func ownToken(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:user:"+id, token, 10*time.Second).Result()
	if err != nil || !ok {
		return
	}
	defer rdb.Eval(ctx, unlock, []string{"lock:user:" + id}, token)
	work()
}
