// Package script holds writes under a lock taken by a Lua set-if-absent
// script.
package script

import (
	"context"
	"database/sql"
	"errors"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

var acquire = redis.NewScript(`
if redis.call("exists", KEYS[1]) == 0 then
	redis.call("set", KEYS[1], ARGV[1], "px", ARGV[2])
	return 1
end
return 0`)

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func unfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	got, err := acquire.Run(ctx, rdb, []string{"lock:settlement"}, token, 20000).Int()
	if err != nil || got == 0 {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{"lock:settlement"}, token)
	_, err = db.ExecContext(ctx, `INSERT INTO settlements (merchant_id, day) VALUES ($1, current_date)`, id) // want `unfenced write under a TTL lock`
	return err
}

func conditional(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	got, err := acquire.Run(ctx, rdb, []string{"lock:settlement"}, token, 20000).Int()
	if err != nil || got == 0 {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{"lock:settlement"}, token)
	res, err := db.ExecContext(ctx, `UPDATE merchants SET settled_day = current_date WHERE id = $1 AND settled_day < current_date`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errBusy
	}
	return nil
}
