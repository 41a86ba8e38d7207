// Package advice holds regions whose advice must fit the statement: its
// columns and placeholder style, and a lock whose token a write depends on,
// which no advice may tell to go.
package advice

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

var acquire = redis.NewScript(`
if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
	return redis.call("incr", KEYS[2])
end
return 0`)

// MySQL: ? placeholders, and the row's own column.
func shipMySQL(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:shipment", token, 10*time.Second).Result(); err != nil || !ok { // want `lock only guards database work: read, check and update shipments in one conditional UPDATE \(… WHERE id = \? AND state = \?\) and check RowsAffected`
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:shipment"}, token)
	var state string
	if err := db.QueryRowContext(ctx, "SELECT state FROM shipments WHERE id = ?", id).Scan(&state); err != nil {
		return err
	}
	if state != "PACKED" {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE shipments SET state = 'SENT' WHERE id = ?", id)
	return err
}

// MySQL check-then-insert: INSERT IGNORE is its spelling.
func enrolMySQL(ctx context.Context, rdb *redis.Client, db *sql.DB, user, course int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:enrol", token, 10*time.Second).Result(); err != nil || !ok { // want `lock only guards database work: a UNIQUE constraint on enrolments \(user_id, course_id\) with INSERT … ON CONFLICT DO NOTHING \(MySQL: INSERT IGNORE\) replaces the check-then-insert`
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:enrol"}, token)
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM enrolments WHERE user_id = ? AND course_id = ?", user, course).Scan(&n); err != nil || n > 0 {
		return err
	}
	_, err := db.ExecContext(ctx, "INSERT INTO enrolments (user_id, course_id) VALUES (?, ?)", user, course)
	return err
}

// The write is fenced by the token the lock's script issues: dropping the
// lock drops the token, so no advice is given.
func fenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	owner := uuid.NewString()
	fence, err := acquire.Run(ctx, rdb, []string{"lock:ledger", "fence:ledger"}, owner, 10000).Int64()
	if err != nil || fence == 0 {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:ledger"}, owner)
	res, err := db.ExecContext(ctx, `UPDATE ledgers SET closed = true, fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errBusy
	}
	return nil
}

// An insert the schema's UNIQUE key refuses a second time (coupon_claims,
// in unfencedwrite/schema's migrations) needs no lock at all.
func claimCoupon(ctx context.Context, rdb *redis.Client, db *sql.DB, user, coupon int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:coupon", token, 10*time.Second).Result(); err != nil || !ok { // want `lock only guards database work: the UNIQUE key of coupon_claims already refuses a second insert; drop the lock and treat the duplicate-key error as done`
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:coupon"}, token)
	_, err := db.ExecContext(ctx, "INSERT INTO coupon_claims (user_id, coupon_id) VALUES ($1, $2)", user, coupon)
	return err
}
