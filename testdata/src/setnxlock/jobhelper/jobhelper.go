// Package jobhelper is a scheduled job that takes its lock through a pair of
// methods of its own on one fixed key.
package jobhelper

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const renewalLockKey = "cron:lock:renewal"

type RenewalJob struct {
	rdb *redis.Client
}

func (j *RenewalJob) tick(ctx context.Context) {
	acquired, err := j.acquireLock(ctx)
	if err != nil {
		return
	}
	if !acquired {
		return
	}
	defer j.releaseLock(ctx)
	j.run(ctx)
}

func (j *RenewalJob) run(context.Context) {}

func (j *RenewalJob) acquireLock(ctx context.Context) (bool, error) {
	ok, err := j.rdb.SetNX(ctx, renewalLockKey, "1", 55*time.Minute).Result() // want `lock value is a constant`
	if err != nil {
		return false, fmt.Errorf("redis SetNX: %w", err)
	}
	return ok, nil
}

func (j *RenewalJob) releaseLock(ctx context.Context) {
	if err := j.rdb.Del(ctx, renewalLockKey).Err(); err != nil {
		fmt.Println("release lock failed", err)
	}
}

const reportLockKey = "cron:lock:report"

// ReportJob keeps no TTL on its lock: a crash between its two methods leaves
// the key for good.
type ReportJob struct {
	rdb   *redis.Client
	token string
}

func (j *ReportJob) lock(ctx context.Context) bool {
	j.token = uuid.NewString()
	ok, err := j.rdb.SetNX(ctx, reportLockKey, j.token, 0).Result() // want `lock has no TTL`
	return err == nil && ok
}

func (j *ReportJob) unlock(ctx context.Context) {
	j.rdb.Del(ctx, reportLockKey)
}

const leaderKey = "cron:leader"

// Leader stores a token of its own with a TTL, and Resign lets go: nothing
// in the acquisition is wrong.
type Leader struct {
	rdb   *redis.Client
	token string
}

func (l *Leader) Campaign(ctx context.Context) (bool, error) {
	l.token = uuid.NewString()
	return l.rdb.SetNX(ctx, leaderKey, l.token, 10*time.Second).Result()
}

func (l *Leader) Resign(ctx context.Context) error {
	return l.rdb.Del(ctx, leaderKey).Err()
}

// A marker that nothing deletes is not a lock, constant value and all.
func markSent(ctx context.Context, rdb *redis.Client) bool {
	ok, err := rdb.SetNX(ctx, "cron:sent-today", "1", 24*time.Hour).Result()
	return err == nil && ok
}
