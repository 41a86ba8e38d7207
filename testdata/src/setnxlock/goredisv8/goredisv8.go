// Package goredisv8 holds go-redis v8 acquisitions.
package goredisv8

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

func work() {}

func constValue(ctx context.Context, rdb *redis.Client, id string) {
	if !rdb.SetNX(ctx, "lock:"+id, "locked", 10*time.Second).Val() { // want `lock value is a constant`
		return
	}
	defer rdb.Del(ctx, "lock:"+id)
	work()
}

func setArgsNoTTL(ctx context.Context, rdb *redis.ClusterClient, id, token string) {
	if err := rdb.SetArgs(ctx, "lock:"+id, token, redis.SetArgs{Mode: "NX"}).Err(); err != nil { // want `lock has no TTL`
		return
	}
	defer rdb.Del(ctx, "lock:"+id)
	work()
}
