// Package goredis holds writes under go-redis v9 locks, taken each way the
// client offers: SetNX, SetArgs with Mode "NX", and a raw SET … NX PX.
package goredis

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func setNXUnfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:payout", token, 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:payout"}, token)
	_, err = db.ExecContext(ctx, `INSERT INTO payouts (account_id, amount) VALUES ($1, 100)`, id) // want `unfenced write under a TTL lock`
	return err
}

func setNXConditional(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:payout", token, 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:payout"}, token)
	res, err := db.ExecContext(ctx, `UPDATE accounts SET paid_out = true WHERE id = $1 AND paid_out = false`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errBusy
	}
	return nil
}

func setArgsUnfenced(ctx context.Context, rdb redis.UniversalClient, db *sql.DB, id int64) error {
	token := uuid.NewString()
	err := rdb.SetArgs(ctx, "lock:report", token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err()
	if err == redis.Nil {
		return errBusy
	}
	if err != nil {
		return err
	}
	defer unlock.Run(ctx, rdb, []string{"lock:report"}, token)
	_, err = db.ExecContext(ctx, `UPDATE reports SET generated_at = now() WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func setArgsConditional(ctx context.Context, rdb redis.UniversalClient, db *sql.DB, id int64) error {
	token := uuid.NewString()
	if _, err := rdb.SetArgs(ctx, "lock:report", token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Result(); err != nil {
		return errBusy // redis.Nil: someone else holds it
	}
	defer unlock.Run(ctx, rdb, []string{"lock:report"}, token)
	res, err := db.ExecContext(ctx, `UPDATE reports SET state = 'GENERATED' WHERE id = $1 AND state = 'QUEUED'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errBusy
	}
	return nil
}

func doUnfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	if err := rdb.Do(ctx, "set", "lock:sync", token, "nx", "px", 5000).Err(); err != nil {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:sync"}, token)
	_, err := db.ExecContext(ctx, `UPDATE mirrors SET synced_at = now() WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func doConditional(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64, version int64) error {
	token := uuid.NewString()
	if err := rdb.Do(ctx, "set", "lock:sync", token, "nx", "px", 5000).Err(); err != nil {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:sync"}, token)
	res, err := db.ExecContext(ctx, `UPDATE mirrors SET synced_at = now(), version = version + 1 WHERE id = $1 AND version = $2`, id, version)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errBusy
	}
	return nil
}
