// Package gozeroclient releases locks with go-zero's own Redis client:
// Del, Expire 0 and GET-compare-DEL are plain releases whichever client
// sends them; Eval and ScriptRun of a compare-and-delete are not.
package gozeroclient

import (
	"context"

	"github.com/google/uuid"
	"github.com/zeromicro/go-zero/core/stores/redis"
)

func work() {}

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func plainDel(ctx context.Context, rds *redis.Redis, id string) {
	token := uuid.NewString()
	if ok, err := rds.SetnxExCtx(ctx, "lock:"+id, token, 30); err != nil || !ok {
		return
	}
	defer rds.DelCtx(ctx, "lock:"+id) // want `lock released with plain DEL: it deletes whoever holds it now; compare the owner and delete atomically`
	work()
}

func twoSteps(rds *redis.Redis, id string) {
	token := uuid.NewString()
	if ok, err := rds.SetnxEx("lock:"+id, token, 30); err != nil || !ok {
		return
	}
	work()
	if v, _ := rds.Get("lock:" + id); v == token {
		rds.Del("lock:" + id) // want `lock released by GET, compare, then DEL: it can change hands in between`
	}
}

func expireZero(rds *redis.Redis, id string) {
	token := uuid.NewString()
	if ok, err := rds.SetnxEx("lock:"+id, token, 30); err != nil || !ok {
		return
	}
	work()
	rds.Expire("lock:"+id, 0) // want `lock released with plain EXPIRE 0`
}

func scriptRun(ctx context.Context, rds *redis.Redis, id string) {
	token := uuid.NewString()
	if ok, err := rds.SetnxExCtx(ctx, "lock:"+id, token, 30); err != nil || !ok {
		return
	}
	defer rds.ScriptRunCtx(ctx, unlock, []string{"lock:" + id}, token)
	work()
}

func constToken(ctx context.Context, rds *redis.Redis, id string) {
	token := uuid.NewString()
	if ok, err := rds.SetnxExCtx(ctx, "lock:"+id, token, 30); err != nil || !ok {
		return
	}
	defer rds.ScriptRunCtx(ctx, unlock, []string{"lock:" + id}, "1") // want `compare-and-delete with a constant token`
	work()
}
