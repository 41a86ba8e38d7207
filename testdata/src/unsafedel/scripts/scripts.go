// Package scripts holds releases through Lua scripts.
package scripts

import (
	"context"
	_ "embed"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

func work() {}

const releaseLua = `
-- delete the lock only if we still own it
if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
else
	return 0
end`

var release = redis.NewScript(releaseLua)

//go:embed release.lua
var releaseEmbedded string

var plainDelete = redis.NewScript(`return redis.call("DEL", KEYS[1])`)

func scriptRun(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	defer release.Run(ctx, rdb, []string{key}, token)
	work()
}

func evalConst(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	work()
	rdb.Eval(ctx, releaseLua, []string{key}, token)
}

func evalEmbedded(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	work()
	rdb.Eval(ctx, releaseEmbedded, []string{key}, token)
}

func constantToken(ctx context.Context, rdb *redis.Client, id string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, 1, time.Minute).Val() {
		return
	}
	work()
	release.Run(ctx, rdb, []string{key}, 1) // want `compare-and-delete with a constant token`
}

func scriptPlainDelete(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	work()
	plainDelete.Run(ctx, rdb, []string{key}) // want `lock released with plain DEL`
}

// A script that acquires: set-if-absent with a TTL, released by compare-and-delete.
var acquire = redis.NewScript(`return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`)

func scriptAcquire(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	if err := acquire.Run(ctx, rdb, []string{key}, token, 30000).Err(); err != nil {
		return
	}
	work()
	rdb.Del(ctx, key) // want `lock released with plain DEL`
}
