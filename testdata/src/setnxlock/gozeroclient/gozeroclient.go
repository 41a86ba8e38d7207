// Package gozeroclient takes locks with go-zero's own Redis client,
// *redis.Redis: its Setnx, SetnxEx and their Ctx forms are read as the SETNX
// and SET NX EX they send.
package gozeroclient

import (
	"context"

	"github.com/google/uuid"
	"github.com/zeromicro/go-zero/core/stores/redis"
)

func work() {}

func constValue(rds *redis.Redis, id string) {
	ok, err := rds.SetnxEx("lock:order:"+id, "1", 10) // want `lock value is a constant: holders cannot be told apart; store a unique token`
	if err != nil || !ok {
		return
	}
	defer rds.Del("lock:order:" + id)
	work()
}

func noTTL(ctx context.Context, rds *redis.Redis, id string) {
	token := uuid.NewString()
	ok, err := rds.SetnxCtx(ctx, "lock:order:"+id, token) // want `lock has no TTL: a crashed holder keeps it forever; set a TTL when acquiring`
	if err != nil || !ok {
		return
	}
	defer rds.DelCtx(ctx, "lock:order:"+id)
	work()
}

func expireAfter(rds *redis.Redis, id string) {
	token := uuid.NewString()
	ok, err := rds.Setnx("lock:job:"+id, token) // want `SETNX then EXPIRE is not atomic: a crash in between leaves a lock that never expires; set the TTL in the same command`
	if err != nil || !ok {
		return
	}
	rds.Expire("lock:job:"+id, 30)
	defer rds.Del("lock:job:" + id)
	work()
}

func ignored(ctx context.Context, rds *redis.Redis, id string) {
	token := uuid.NewString()
	rds.SetnxExCtx(ctx, "lock:job:"+id, token, 30) // want `lock result ignored`
	defer rds.DelCtx(ctx, "lock:job:"+id)
	work()
}

// Silent: a unique token, a TTL, the result gating the work.
func good(ctx context.Context, rds *redis.Redis, id string) {
	token := uuid.NewString()
	ok, err := rds.SetnxExCtx(ctx, "lock:job:"+id, token, 30)
	if err != nil || !ok {
		return
	}
	defer rds.EvalCtx(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`, []string{"lock:job:" + id}, token)
	work()
}

// Silent: a dedup marker, never released.
func seen(rds *redis.Redis, id string) bool {
	ok, _ := rds.SetnxEx("seen:"+id, "1", 86400)
	return ok
}
