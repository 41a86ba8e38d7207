// Package cacheiface holds its Redis client behind an interface of its own,
// whose methods go-redis's client implements: a SetNX and a Del on it are
// the client's.
package cacheiface

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// Cache is the part of go-redis the service uses.
type Cache interface {
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.BoolCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
	Get(ctx context.Context, key string) *redis.StringCmd
}

// Store has methods of the same names that are no Redis client's.
type Store interface {
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) bool
	Del(ctx context.Context, keys ...string) error
}

func work() {}

func viaCache(ctx context.Context, c Cache, id string) {
	token := uuid.NewString()
	if !c.SetNX(ctx, "lock:"+id, token, time.Minute).Val() {
		return
	}
	defer c.Del(ctx, "lock:"+id) // want `lock released with plain DEL`
	work()
}

func viaStore(ctx context.Context, s Store, id string) {
	token := uuid.NewString()
	if !s.SetNX(ctx, "lock:"+id, token, time.Minute) {
		return
	}
	defer s.Del(ctx, "lock:"+id)
	work()
}
