// Package lookalike holds Redis code that is not what it looks like: SET NX
// calls that are not locks, and GETs before a DEL that check no owner. Every
// check runs on it and must stay silent.
package lookalike

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

func process(string) error { return nil }

// A dedup marker: never deleted.
func seen(ctx context.Context, rdb *redis.Client, msgID string) bool {
	return rdb.SetNX(ctx, "seen:"+msgID, 1, 24*time.Hour).Val()
}

// An idempotency marker deleted only on failure, so that a retry can run.
func handleOnce(ctx context.Context, rdb *redis.Client, reqID string) error {
	if !rdb.SetNX(ctx, "idem:"+reqID, 1, 24*time.Hour).Val() {
		return errors.New("duplicate request")
	}
	if err := process(reqID); err != nil {
		rdb.Del(ctx, "idem:"+reqID)
		return err
	}
	return nil
}

// The same marker undone by a deferred closure when the function fails: the
// DEL runs only on the error path, so the key is never released after work.
func handleOnceDeferred(ctx context.Context, rdb *redis.Client, reqID string) (err error) {
	if set, err := rdb.SetNX(ctx, "dupl:"+reqID, "", time.Hour).Result(); err != nil || !set {
		return errors.New("duplicate request")
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, rdb.Del(context.Background(), "dupl:"+reqID).Err())
		}
	}()
	return process(reqID)
}

// A run-once guard for a migration: set, never released, no TTL by design.
func migrateOnce(ctx context.Context, rdb *redis.Client) error {
	if !rdb.SetNX(ctx, "migrated:v2", "done", 0).Val() {
		return nil
	}
	return process("v2")
}

// A throttle: the key expires on its own.
func allow(ctx context.Context, rdb *redis.Client, user string) bool {
	return rdb.SetNX(ctx, "throttle:"+user, 1, time.Minute).Val()
}

// A create-if-absent record with no TTL by design, deleted by another API call.
func createShortURL(ctx context.Context, rdb *redis.Client, slug, url string) (bool, error) {
	return rdb.SetNX(ctx, "short:"+slug, url, 0).Result()
}

func deleteShortURL(ctx context.Context, rdb *redis.Client, slug string) error {
	return rdb.Del(ctx, "short:"+slug).Err()
}

// A persistent flag set by one command and cleared by another.
type Queue struct {
	rdb       *redis.Client
	pausedKey string
}

func (q *Queue) Pause(ctx context.Context) {
	q.rdb.SetNX(ctx, q.pausedKey, 1, 0)
}

func (q *Queue) Unpause(ctx context.Context) {
	q.rdb.Del(ctx, q.pausedKey)
}

// A per-period lease meant to expire rather than be released.
func runDaily(ctx context.Context, rdb *redis.Client, day, host string) error {
	if !rdb.SetNX(ctx, "cron:daily:"+day, host, 23*time.Hour).Val() {
		return nil
	}
	return process(day)
}

// A SETNX then EXPIRE marker that nobody releases.
func markFirstVisit(ctx context.Context, rdb *redis.Client, user string) bool {
	first := rdb.SetNX(ctx, "visited:"+user, 1, 0).Val()
	rdb.Expire(ctx, "visited:"+user, 30*24*time.Hour)
	return first
}

// The legacy timestamp lock: GET, check for errors and staleness, GETSET, then
// EXPIRE. Nothing compares an owner value, so this is no two-step release.
func staleLock(ctx context.Context, rdb *redis.Client, key string, expiresAt int64) {
	if rdb.SetNX(ctx, key, expiresAt, time.Minute).Val() {
		return
	}
	v, err := rdb.Get(ctx, key).Int64()
	if err != nil {
		return
	}
	if v < time.Now().UnixNano() {
		rdb.GetSet(ctx, key, expiresAt)
		rdb.Expire(ctx, key, time.Minute)
	}
}

// Clearing a key only when it is empty is no owner check either.
func clearEmpty(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.Get(ctx, key).Val() == "" {
		rdb.Del(ctx, key)
	}
}

// A one-time login code, read, compared with the one submitted and deleted
// before the login goes on: consumed, not a lock released.
func login(ctx context.Context, rdb *redis.Client, phone, code string, createSession func() error) error {
	key := "login:code:" + phone
	stored, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if stored != code {
		return errors.New("wrong code")
	}
	if err := rdb.Del(ctx, key).Err(); err != nil {
		return err
	}
	return createSession()
}

// The same check as a verifier whose last step is the delete: its key says
// it holds a code.
const emailCodePrefix = "email_code:"

func verifyEmailCode(ctx context.Context, rdb *redis.Client, email, code string) bool {
	key := emailCodePrefix + email
	stored, err := rdb.Get(ctx, key).Result()
	if err != nil || stored != code {
		return false
	}
	rdb.Del(ctx, key)
	return true
}

// Dedupe markers that a failure deletes again, to let a retry through: the
// path on which the work goes through keeps the key for days. No lock.
func queueOnce(ctx context.Context, rdb *redis.Client, ids []string, publish func(string) error) int {
	queued := 0
	for _, id := range ids {
		isNew, err := rdb.SetNX(ctx, "queued:"+id, "true", 31*24*time.Hour).Result()
		if err != nil || !isNew {
			continue
		}
		if err := publish(id); err != nil {
			rdb.Del(ctx, "queued:"+id)
			continue
		}
		queued++
	}
	return queued
}

func chargeOnce(ctx context.Context, rdb *redis.Client, requestID string, charge func() error) error {
	ok, err := rdb.SetNX(ctx, "idem:"+requestID, "pending", 24*time.Hour).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("duplicate request")
	}
	if err := charge(); err != nil {
		rdb.Del(ctx, "idem:"+requestID)
		return err
	}
	return nil
}
