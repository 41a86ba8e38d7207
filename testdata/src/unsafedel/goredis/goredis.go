// Package goredis holds go-redis v9 releases that unsafedel judges.
package goredis

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

func work() {}

func plainDel(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	if ok, _ := rdb.SetNX(ctx, key, token, time.Minute).Result(); !ok {
		return
	}
	work()
	rdb.Del(ctx, key) // want `lock released with plain DEL: it deletes whoever holds it now; compare the owner and delete atomically`
}

func deferredDel(ctx context.Context, rdb redis.UniversalClient, id string) error {
	token := uuid.NewString()
	key := "lock:" + id
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key) // want `lock released with plain DEL`
	work()
	return nil
}

func deferredClosure(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	defer func() {
		rdb.Unlink(ctx, key) // want `lock released with plain UNLINK`
	}()
	work()
}

func getDel(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	if !rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Val() {
		return
	}
	work()
	rdb.GetDel(ctx, "lock:"+id) // want `lock released with plain GETDEL`
}

func expireZero(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	if !rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Val() {
		return
	}
	work()
	rdb.Expire(ctx, "lock:"+id, 0) // want `lock released with plain EXPIRE 0`
}

// GET, compare in Go, DEL: two round trips.
func getCompareDel(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	work()
	if rdb.Get(ctx, key).Val() == token {
		rdb.Del(ctx, key) // want `lock released by GET, compare, then DEL: it can change hands in between; compare and delete in one Lua script`
	}
}

// A GET compared with the stored value right after SETNX checks the
// acquisition; the DEL at the end is a plain DEL.
func readBackThenDel(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	if err := rdb.SetNX(ctx, key, token, time.Minute).Err(); err != nil {
		return
	}
	if owner, _ := rdb.Get(ctx, key).Result(); owner != token {
		return
	}
	defer rdb.Del(ctx, key) // want `lock released with plain DEL: it deletes whoever holds it now`
	work()
}

func refresh(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	for range 3 {
		work()
		rdb.Expire(ctx, key, time.Minute) // want `lock refreshed with EXPIRE without an owner check: it can extend another holder's lock; compare the owner in a Lua script`
	}
	if err := rdb.DelExArgs(ctx, key, redis.DelExArgs{Mode: "IFEQ", MatchValue: token}).Err(); err != nil {
		return
	}
}

func delExConstant(ctx context.Context, rdb *redis.Client, id string) {
	if !rdb.SetNX(ctx, "lock:"+id, "1", time.Minute).Val() {
		return
	}
	work()
	rdb.DelExArgs(ctx, "lock:"+id, redis.DelExArgs{Mode: "IFEQ", MatchValue: "1"}) // want `compare-and-delete with a constant token: every holder matches; pass the owner's unique value`
}

// Not locks: a cache invalidation and a dedup marker.
func cacheInvalidation(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Set(ctx, "user:"+id, "x", time.Hour)
	rdb.Del(ctx, "user:"+id)
}

func dedup(ctx context.Context, rdb *redis.Client, msgID string) bool {
	return rdb.SetNX(ctx, "seen:"+msgID, 1, 24*time.Hour).Val()
}

// A different key is deleted: not this lock's release.
func otherKey(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	if !rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Val() {
		return
	}
	rdb.Del(ctx, "cache:"+id)
}
