// Package goredisv8 holds writes under a go-redis v8 lock.
package goredisv8

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/google/uuid"
)

var errBusy = errors.New("busy")

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func unfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key := "lock:member"
	token := uuid.NewString()
	if !rdb.SetNX(ctx, key, token, 10*time.Second).Val() {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{key}, token)
	_, err := db.ExecContext(ctx, `UPDATE members SET level = level + 1 WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func conditional(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64, level int) error {
	key := "lock:member"
	token := uuid.NewString()
	if !rdb.SetNX(ctx, key, token, 10*time.Second).Val() {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{key}, token)
	res, err := db.ExecContext(ctx, `UPDATE members SET level = $2 + 1 WHERE id = $1 AND level = $2`, id, level)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errBusy
	}
	return nil
}
