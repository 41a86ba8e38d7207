// Package reentrant takes its lock with an in-house copy of go-zero's
// RedisLock: one script sets the key if absent or extends the holder's own,
// which makes it an acquisition still, and a retry loop wraps it.
package reentrant

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const lockCommand = `if redis.call("GET", KEYS[1]) == ARGV[1] then
    redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
    return "OK"
else
    return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])
end`

const delCommand = `if redis.call("GET", KEYS[1]) == ARGV[1] then
    return redis.call("DEL", KEYS[1])
else
    return 0
end`

type RedisLock struct {
	rdb     *redis.Client
	seconds int
	key, id string
}

func New(rdb *redis.Client, key string) *RedisLock {
	return &RedisLock{rdb: rdb, seconds: 3, key: key, id: uuid.NewString()}
}

func (rl *RedisLock) Acquire(ctx context.Context) (bool, error) {
	resp, err := rl.rdb.Eval(ctx, lockCommand, []string{rl.key}, []string{rl.id, strconv.Itoa(rl.seconds*1000 + 500)}).Result()
	if err == redis.Nil {
		return false, nil
	} else if err != nil {
		return false, err
	}
	reply, ok := resp.(string)
	return ok && reply == "OK", nil
}

func (rl *RedisLock) TryLockTimeout(ctx context.Context, timeout time.Duration) (bool, error) {
	start := time.Now()
	for time.Since(start) < timeout {
		if ok, err := rl.Acquire(ctx); ok && err == nil {
			return true, nil
		}
		time.Sleep(70 * time.Millisecond)
	}
	return false, context.DeadlineExceeded
}

func (rl *RedisLock) Release(ctx context.Context) (bool, error) {
	resp, err := rl.rdb.Eval(ctx, delCommand, []string{rl.key}, []string{rl.id}).Result()
	if err != nil {
		return false, err
	}
	n, _ := resp.(int64)
	return n == 1, nil
}

func settle(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	l := New(rdb, "merchant-balance:"+strconv.FormatInt(id, 10))
	if ok, _ := l.TryLockTimeout(ctx, 8*time.Second); ok {
		defer l.Release(ctx)
		if _, err := db.ExecContext(ctx, "UPDATE balances SET amount = $1 WHERE id = $2", 10, id); err != nil { // want `unfenced write under a TTL lock`
			return err
		}
		res, err := db.ExecContext(ctx, "UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'NEW'", id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
	}
	return nil
}
