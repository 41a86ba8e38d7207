// Package libhelper writes under a go-zero lock taken by a helper that returns
// the lock object: the region runs from the caller's test of the flag (or the
// error) to the object's release.
package libhelper

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

func lock(ctx context.Context, store *redis.Redis, user int64) (*redis.RedisLock, bool) {
	l := redis.NewRedisLock(store, fmt.Sprint("topup:", user))
	ok, err := l.AcquireCtx(ctx)
	return l, err == nil && ok
}

func mustLock(ctx context.Context, store *redis.Redis, user int64) (*redis.RedisLock, error) {
	l := redis.NewRedisLock(store, fmt.Sprint("topup:", user))
	ok, err := l.AcquireCtx(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("busy")
	}
	return l, nil
}

func settle(ctx context.Context, store *redis.Redis, db *sql.DB, user int64) error {
	l, ok := lock(ctx, store, user)
	if !ok {
		return nil
	}
	defer l.ReleaseCtx(ctx)
	_, err := db.ExecContext(ctx, "UPDATE topups SET status = 'PAID' WHERE user_id = $1", user) // want `unfenced write under a TTL lock`
	return err
}

func settleErr(ctx context.Context, store *redis.Redis, db *sql.DB, user int64) error {
	l, err := mustLock(ctx, store, user)
	if err != nil {
		return err
	}
	defer l.ReleaseCtx(ctx)
	_, err = db.ExecContext(ctx, "UPDATE topups SET status = 'PAID' WHERE user_id = $1 AND status = 'PENDING'", user) // want `result of the conditional write is ignored`
	return err
}
