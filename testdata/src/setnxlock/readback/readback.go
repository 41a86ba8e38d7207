// Package readback confirms its SETNX by reading the key back and comparing it
// with the field the value was stored from: one value, read twice.
package readback

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

type Mutex struct {
	rdb        *redis.Client
	key, value string
}

func NewMutex(rdb *redis.Client, key string) *Mutex {
	return &Mutex{rdb: rdb, key: key, value: uuid.NewString()}
}

func (m *Mutex) Lock(ctx context.Context) bool {
	m.rdb.SetNX(ctx, m.key, m.value, time.Minute)
	return m.rdb.Get(ctx, m.key).Val() == m.value
}

func (m *Mutex) Unlock(ctx context.Context) {
	unlock.Run(ctx, m.rdb, []string{m.key}, m.value)
}
