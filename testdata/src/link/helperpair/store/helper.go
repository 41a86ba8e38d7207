// Package store has a Redis helper that forwards commands and offers a lock
// of its own, which the service calls: the helper's constant value is
// reported in it, once, not at the call.
package store

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Helper struct{ client *redis.Client }

func (h *Helper) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return h.client.SetNX(ctx, key, value, ttl).Result()
}

func (h *Helper) Del(ctx context.Context, key string) error { return h.client.Del(ctx, key).Err() }

func (h *Helper) Lock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	return h.client.SetNX(ctx, key, "1", ttl).Result() // want `lock value is a constant`
}

func (h *Helper) Unlock(ctx context.Context, key string) error {
	return h.client.Del(ctx, key).Err() // want `lock released with plain DEL`
}

// Good takes a per-call token with a TTL and releases by compare-and-delete:
// silent.
type Good struct{ client *redis.Client }

func (g *Good) Acquire(ctx context.Context, key string, ttl time.Duration) (string, bool, error) {
	token := uuid.NewString()
	ok, err := g.client.SetNX(ctx, key, token, ttl).Result()
	return token, ok, err
}

func (g *Good) Release(ctx context.Context, key, token string) error {
	return g.client.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{key}, token).Err()
}
