// Package repeatskey stores, as the lock's value, something computed from
// the key alone: every holder of the key stores the same value, as with a
// constant, and a compare-and-delete with it matches every holder.
package repeatskey

import (
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func work() {}

func token(string) string { return uuid.NewString() }

func keyAsValue(ctx context.Context, rdb *redis.Client, id int64) {
	key := "lock:order:" + strconv.FormatInt(id, 10)
	ok, err := rdb.SetNX(ctx, key, key, 10*time.Second).Result() // want `lock value repeats the key: holders cannot be told apart`
	if err != nil || !ok {
		return
	}
	defer rdb.Eval(ctx, unlock, []string{key}, token(key))
	work()
}

func idAsValue(ctx context.Context, rdb *redis.Client, id string) {
	ok, err := rdb.SetNX(ctx, "lock:user:"+id, id, 10*time.Second).Result() // want `lock value repeats the key`
	if err != nil || !ok {
		return
	}
	defer rdb.Eval(ctx, unlock, []string{"lock:user:" + id}, id)
	work()
}

// tryLock decides it alone: it is reported in it, not at its callers.
func tryLock(ctx context.Context, rdb *redis.Client, key string) bool {
	return rdb.SetNX(ctx, key, key, 10*time.Second).Val() // want `lock value repeats the key`
}

func viaWrapper(ctx context.Context, rdb *redis.Client, id string) {
	if !tryLock(ctx, rdb, "lock:grant:"+id) {
		return
	}
	defer rdb.Eval(ctx, unlock, []string{"lock:grant:" + id}, "lock:grant:"+id)
	work()
}

// Silent: values with a part of their own.

func uniqueValue(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:user:"+id, token, 10*time.Second).Result()
	if err != nil || !ok {
		return
	}
	defer rdb.Eval(ctx, unlock, []string{"lock:user:" + id}, token)
	work()
}

func idAndTime(ctx context.Context, rdb *redis.Client, id string) {
	value := fmt.Sprintf("%s-%d", id, time.Now().UnixNano())
	ok, err := rdb.SetNX(ctx, "lock:user:"+id, value, 10*time.Second).Result()
	if err != nil || !ok {
		return
	}
	defer rdb.Eval(ctx, unlock, []string{"lock:user:" + id}, value)
	work()
}

func ownerInKey(ctx context.Context, rdb *redis.Client, id, owner string) {
	ok, err := rdb.SetNX(ctx, "lock:user:"+id, owner, 10*time.Second).Result()
	if err != nil || !ok {
		return
	}
	defer rdb.Eval(ctx, unlock, []string{"lock:user:" + id}, owner)
	work()
}

// A service whose key and value both come from its own methods: the value's
// method takes nothing but the receiver, so it is not the key's input.
type wallets struct{ rdb *redis.Client }

func (w *wallets) lockKey(uid string) string { return "lock:wallet:" + uid }

func (w *wallets) lockValue() string { return uuid.NewString() }

func (w *wallets) methodValue(ctx context.Context, uid string) {
	key, value := w.lockKey(uid), w.lockValue()
	ok, err := w.rdb.SetNX(ctx, key, value, 30*time.Second).Result()
	if err != nil || !ok {
		return
	}
	defer w.rdb.Eval(ctx, unlock, []string{key}, value)
	work()
}

// A helper that takes the key but draws a random value: not the key's
// repeat.
func randomFor(key string) string { return key[:0] + strconv.Itoa(rand.Int()) }

func helperDraws(ctx context.Context, rdb *redis.Client, id string) {
	key := "lock:goods:" + id
	value := randomFor(key)
	ok, err := rdb.SetNX(ctx, key, value, 3*time.Second).Result()
	if err != nil || !ok {
		return
	}
	defer rdb.Eval(ctx, unlock, []string{key}, value)
	work()
}
