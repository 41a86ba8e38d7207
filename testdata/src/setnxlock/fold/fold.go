// Package fold holds SETNX-then-EXPIRE acquisitions, whose fix folds the TTL
// into the SETNX.
package fold

import (
	"context"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/google/uuid"
	goredis "github.com/redis/go-redis/v9"
)

const lockTTL = 30 * time.Second

func work() {}

func twoSteps(ctx context.Context, rdb *goredis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	ok := rdb.SetNX(ctx, key, token, 0).Val() // want `SETNX then EXPIRE is not atomic: a crash in between leaves a lock that never expires; set the TTL in the same command`
	if !ok {
		return
	}
	rdb.Expire(ctx, key, lockTTL)
	work()
	rdb.Del(ctx, key)
}

// The TTL is computed after the SETNX: moving it would not compile, so no fix.
func ttlComputedLater(ctx context.Context, rdb *goredis.Client, id string, d time.Duration) {
	token := uuid.NewString()
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, token, 0).Val() { // want `SETNX then EXPIRE is not atomic`
		return
	}
	ttl := 2 * d
	if err := rdb.Expire(ctx, key, ttl).Err(); err != nil {
		return
	}
	work()
	rdb.Del(ctx, key)
}

func redigoTwoSteps(c redis.Conn, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	n, err := redis.Int(c.Do("SETNX", key, token)) // want `SETNX then EXPIRE is not atomic`
	if err != nil || n == 0 {
		return
	}
	c.Do("EXPIRE", key, 30)
	work()
	c.Do("DEL", key)
}

// A SETNX then EXPIRE whose key is never released is a dedup marker, not a lock.
func marker(ctx context.Context, rdb *goredis.Client, id string) bool {
	ok := rdb.SetNX(ctx, "seen:"+id, 1, 0).Val()
	rdb.Expire(ctx, "seen:"+id, time.Hour)
	return ok
}
