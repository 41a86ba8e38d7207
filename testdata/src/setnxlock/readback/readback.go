// Package readback confirms its SETNX by reading the key back and comparing it
// with the field the value was stored from: one value, read twice.
package readback

import (
	"context"
	"time"

	redisv8 "github.com/go-redis/redis/v8"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	locker "testcases/unsafedel/readback"
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

// Cache confirms its SETNX by reading back the value its caller passes:
// with a constant, every caller reads back what it stored.
type Cache struct{ rdb *redis.Client }

func (c *Cache) TryLock(ctx context.Context, key, value string, ttl time.Duration) bool {
	c.rdb.SetNX(ctx, key, value, ttl)
	return c.rdb.Get(ctx, key).Val() == value
}

func (c *Cache) Unlock(ctx context.Context, key, value string) {
	unlock.Run(ctx, c.rdb, []string{key}, value)
}

func grant(ctx context.Context, c *Cache, id string) {
	if !c.TryLock(ctx, "lock:grant:"+id, "1", time.Minute) { // want `lock value is a constant in TryLock`
		return
	}
	defer c.Unlock(ctx, "lock:grant:"+id, "1")
}

func readBackConst(ctx context.Context, rdb *redis.Client, id string) {
	// A constant read back confirms nothing: every caller reads it.
	rdb.SetNX(ctx, "lock:job:"+id, "locked", time.Minute) // want `lock value is a constant` `lock result ignored`
	if rdb.Get(ctx, "lock:job:"+id).Val() != "locked" {
		return
	}
	defer unlock.Run(ctx, rdb, []string{"lock:job:" + id}, "locked")
}

// A lock object made with a constant confirms nothing either; the constant
// is chosen where the object is made.
func conjunction(ctx context.Context, rdb redisv8.UniversalClient) error {
	lock := locker.NewLocker("admins:change", "lockValue", 10, rdb) // want `lock value given to NewLocker is a constant`
	ok, err := lock.Lock()
	if err != nil || !ok {
		return err
	}
	defer lock.UnLock()
	return nil
}

func conjunctionUnique(ctx context.Context, rdb redisv8.UniversalClient) error {
	lock := locker.NewLocker("admins:change", uuid.NewString(), 10, rdb)
	ok, err := lock.Lock()
	if err != nil || !ok {
		return err
	}
	defer lock.UnLock()
	return nil
}
