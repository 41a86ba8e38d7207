// Package givenback takes short leases that are kept when the work succeeds
// and given back only when it fails. A lease of seconds may have passed to
// another holder by the time the failure is known, so the give-back must
// check the owner; a marker kept for an hour or more is cleared for a retry.
package givenback

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	zr "github.com/zeromicro/go-zero/core/stores/redis"
)

func assign(id int64) error { return errors.New("taken") }

func reserveKey(id int64) string { return fmt.Sprintf("reserve:%d", id) }

// A reservation held for three minutes, given back when the assignment fails.
func reserve(ctx context.Context, rds *zr.Redis, id int64) error {
	ok, err := rds.SetnxExCtx(ctx, reserveKey(id), uuid.NewString(), 180)
	if err != nil || !ok {
		return err
	}
	if err := assign(id); err != nil {
		rds.DelCtx(ctx, reserveKey(id)) // want `lock released with plain DEL`
		return err
	}
	return nil
}

func submit(ctx context.Context, rdb *redis.Client, id string) error {
	token := uuid.NewString()
	if !rdb.SetNX(ctx, "submit:"+id, token, 5*time.Second).Val() {
		return errors.New("submitted twice")
	}
	if err := assign(0); err != nil {
		rdb.Del(ctx, "submit:"+id) // want `lock released with plain DEL`
		return err
	}
	return nil
}

// A day-long marker cleared for a retry is not a lease.
func once(ctx context.Context, rdb *redis.Client, id string) error {
	if !rdb.SetNX(ctx, "once:"+id, uuid.NewString(), 24*time.Hour).Val() {
		return errors.New("done already")
	}
	if err := assign(0); err != nil {
		rdb.Del(ctx, "once:"+id)
		return err
	}
	return nil
}

// A TTL the caller chooses is not known to be short.
func onceFor(ctx context.Context, rdb *redis.Client, id string, ttl time.Duration) error {
	if !rdb.SetNX(ctx, "once:"+id, uuid.NewString(), ttl).Val() {
		return errors.New("done already")
	}
	if err := assign(0); err != nil {
		rdb.Del(ctx, "once:"+id)
		return err
	}
	return nil
}
