// Package shapes holds locks that only guard database work, one per shape of
// advice.
package shapes

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Read a row, check a field, update it.
func payOrder(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key := fmt.Sprintf("lock:order:%d", id)
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok { // want `lock only guards database work: read, check and update orders in one conditional UPDATE \(… WHERE id = \$1 AND status = \$2\) and check RowsAffected`
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{key}, token)
	var status string
	if err := db.QueryRowContext(ctx, `SELECT status FROM orders WHERE id = $1`, id).Scan(&status); err != nil {
		return err
	}
	if status != "PENDING" {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id)
	return err
}

// Check existence, then insert.
func claimCoupon(ctx context.Context, rdb *redis.Client, db *sql.DB, user, coupon int64) error {
	key := fmt.Sprintf("lock:coupon:%d:%d", user, coupon)
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok { // want `lock only guards database work: a UNIQUE constraint on claims \(user_id, coupon_id\) with INSERT … ON CONFLICT DO NOTHING replaces the check-then-insert`
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{key}, token)
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM claims WHERE user_id = $1 AND coupon_id = $2`, user, coupon).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errors.New("already claimed")
	}
	_, err := db.ExecContext(ctx, `INSERT INTO claims (user_id, coupon_id) VALUES ($1, $2)`, user, coupon)
	return err
}

// A lock around a whole batch job.
func settleDay(ctx context.Context, rdb *redis.Client, db *sql.DB, ids []int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:settle", token, time.Hour).Result(); err != nil || !ok { // want `lock only guards database work: a UNIQUE-keyed task table or a database advisory lock serializes the job without a TTL`
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:settle"}, token)
	for _, id := range ids {
		if _, err := db.ExecContext(ctx, `UPDATE accounts SET settled = true WHERE id = $1`, id); err != nil {
			return err
		}
	}
	return nil
}

// Anything else: row locks in a transaction.
func transfer(ctx context.Context, rdb *redis.Client, db *sql.DB, from, to int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:transfer", token, 10*time.Second).Result(); err != nil || !ok { // want `lock only guards database work: SELECT … FOR UPDATE in a transaction serializes it without a TTL`
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:transfer"}, token)
	if _, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 10 WHERE id = $1`, from); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance + 10 WHERE id = $1`, to)
	return err
}

// The conditional UPDATE already decides who goes on; the credit follows it.
func payAndCredit(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key := fmt.Sprintf("lock:order:%d", id)
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok { // want `lock only guards database work: the conditional UPDATE of orders already lets only one caller through; drop the lock`
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{key}, token)
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errBusy
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET points = points + 10 WHERE id = $1`, id)
	return err
}

// So does an idempotent insert.
func creditOnce(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key := fmt.Sprintf("lock:credit:%d", id)
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok { // want `lock only guards database work: the INSERT … ON CONFLICT DO NOTHING into credits already lets only one caller through; drop the lock`
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{key}, token)
	res, err := db.ExecContext(ctx, `INSERT INTO credits (order_id) VALUES ($1) ON CONFLICT DO NOTHING`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		_, err = db.ExecContext(ctx, `UPDATE accounts SET points = points + 10 WHERE id = $1`, id)
	}
	return err
}
