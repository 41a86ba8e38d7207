// Package basic holds database/sql writes under go-redis and redigo locks.
package basic

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func lock(ctx context.Context, rdb *redis.Client, key string) (string, error) {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errBusy
	}
	return token, nil
}

// The classic: an owner-checked lock, still an unfenced write.
func completeOrder(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key := fmt.Sprintf("lock:order:%d", id)
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{key}, token)

	_, err := db.ExecContext(ctx, `UPDATE orders SET paid_at = now() WHERE id = $1`, id) // want `unfenced write under a TTL lock: after the lease expires it can overwrite a newer holder's work; make it conditional on a fencing token or on the row's state`
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "INSERT INTO points_ledger (order_id, points) VALUES ($1, 10)", id) // want `unfenced write under a TTL lock: after the lease expires it can repeat a newer holder's insert; give the row a UNIQUE key and insert with ON CONFLICT DO NOTHING`
	return err
}

// Conditional writes are fenced by the row's state.
func stateMachine(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key := fmt.Sprintf("lock:order:%d", id)
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{key}, token)

	// A version bump, its result ignored: the database refuses a stale write
	// and nobody notices.
	db.ExecContext(ctx, `UPDATE orders SET note = $2, version = version + 1 WHERE id = $1 AND version = $3`, id, "x", 3) // want `result of the conditional write is ignored: a write the database refused passes as done; check RowsAffected`
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errBusy
	}
	// Stock decrement guarded by the stock itself.
	row := db.QueryRowContext(ctx, `UPDATE items SET stock = stock - 1 WHERE id = $1 AND stock > 0 RETURNING stock`, id)
	var stock int
	if err := row.Scan(&stock); err != nil {
		return err
	}
	// An upsert that does nothing on conflict.
	if _, err := db.ExecContext(ctx, `INSERT INTO receipts (order_id) VALUES ($1) ON CONFLICT (order_id) DO NOTHING`, id); err != nil {
		return err
	}
	return nil
}

// A transaction that locked the row first.
func forUpdate(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token, err := lock(ctx, rdb, "lock:order")
	if err != nil {
		return err
	}
	defer release.Run(ctx, rdb, []string{"lock:order"}, token)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var status string
	if err := tx.QueryRowContext(ctx, `SELECT status FROM orders WHERE id = $1 FOR UPDATE`, id).Scan(&status); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id); err != nil {
		return err
	}
	return tx.Commit()
}

// Reads, deletes and writes outside the region are not judged.
func outside(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	db.ExecContext(ctx, `UPDATE orders SET seen = true WHERE id = $1`, id)
	key := fmt.Sprintf("lock:order:%d", id)
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	var n int
	db.QueryRowContext(ctx, `SELECT count(*) FROM orders WHERE id = $1`, id).Scan(&n)
	db.ExecContext(ctx, `DELETE FROM carts WHERE order_id = $1`, id)
	release.Run(ctx, rdb, []string{key}, token)
	db.ExecContext(ctx, `UPDATE orders SET released = true WHERE id = $1`, id)
	return nil
}

// A fencing token from a Lua lock that INCRs a counter.
var acquireWithToken = redis.NewScript(`
if redis.call("exists", KEYS[1]) == 0 then
	local t = redis.call("incr", KEYS[2])
	redis.call("set", KEYS[1], t, "px", ARGV[1])
	return t
end
return 0`)

func fenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key := fmt.Sprintf("lock:order:%d", id)
	token, err := acquireWithToken.Run(ctx, rdb, []string{key, "fence:order"}, 10000).Int64()
	if err != nil || token == 0 {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, token)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errBusy
	}
	return nil
}

func redigoLock(c redigo.Conn, db *sql.DB, id int64) error {
	key := fmt.Sprintf("lock:order:%d", id)
	if _, err := redigo.String(c.Do("SET", key, uuid.NewString(), "NX", "PX", 10000)); err != nil {
		return err
	}
	defer c.Do("DEL", key)
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", 10, id) // want `unfenced write under a TTL lock`
	return err
}
