// Package ttlunits gives lock TTLs as bare numbers where go-redis takes a
// time.Duration: 15 is fifteen nanoseconds, sent to Redis as PX 1.
package ttlunits

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

func direct(ctx context.Context, id string) error {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:"+id, token, 15).Result() // want `lock TTL is 15ns: a bare number given as a time.Duration counts nanoseconds, so the lock is gone before the work starts; write its unit \(15 \* time.Second\)`
	if err != nil || !ok {
		return err
	}
	defer release(ctx, "lock:"+id, token)
	return nil
}

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func release(ctx context.Context, key, token string) {
	unlock.Run(ctx, rdb, []string{key}, token)
}

// RedisLock is a lock object whose Acquire and Release pair by name.
type RedisLock struct {
	Key, Token string
}

func (l *RedisLock) Acquire(ctx context.Context) bool {
	ok, err := rdb.SetNX(ctx, l.Key, l.Token, 30).Result() // want `lock TTL is 30ns`
	return err == nil && ok
}

func (l *RedisLock) Release(ctx context.Context) {
	unlock.Run(ctx, rdb, []string{l.Key}, l.Token)
}

func sell(ctx context.Context, id string) {
	l := &RedisLock{Key: "stock:" + id, Token: uuid.NewString()}
	if !l.Acquire(ctx) {
		return
	}
	defer l.Release(ctx)
}

// TryLock takes its TTL from the caller, who decides it.
func TryLock(ctx context.Context, key, token string, ttl time.Duration) bool {
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	return err == nil && ok
}

func viaWrapper(ctx context.Context, id string) {
	token := uuid.NewString()
	if !TryLock(ctx, "job:"+id, token, 10) { // want `lock TTL is 10ns`
		return
	}
	defer release(ctx, "job:"+id, token)
}

// Silent: the unit is written, or the TTL is a millisecond or more.
func withUnits(ctx context.Context, id string) {
	token := uuid.NewString()
	if !TryLock(ctx, "job:"+id, token, 10*time.Second) {
		return
	}
	defer release(ctx, "job:"+id, token)
	ok, err := rdb.SetNX(ctx, "lock:"+id, token, time.Millisecond).Result()
	if err != nil || !ok {
		return
	}
	defer release(ctx, "lock:"+id, token)
}
