// Package stdsql holds database/sql writes under a go-redis lock, one reported
// and one silent case per way of running a statement.
package stdsql

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errStale = errors.New("stale: a newer holder won")

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// lock takes key for ten seconds and returns the owner token, or "".
func lock(ctx context.Context, rdb *redis.Client, key string) string {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return ""
	}
	return token
}

func unlock(ctx context.Context, rdb *redis.Client, key, token string) {
	unlockScript.Run(ctx, rdb, []string{key}, token)
}

func rowsChanged(res sql.Result) error {
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errStale
	}
	return nil
}

func execUnfenced(rdb *redis.Client, db *sql.DB, id int64) error {
	ctx := context.Background()
	token := lock(ctx, rdb, "lock:account")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:account", token)
	_, err := db.Exec(`UPDATE accounts SET balance = balance + 10 WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func execConditional(rdb *redis.Client, db *sql.DB, id int64) error {
	ctx := context.Background()
	token := lock(ctx, rdb, "lock:account")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:account", token)
	res, err := db.Exec(`UPDATE accounts SET balance = balance - 10 WHERE id = $1 AND balance >= 10`, id)
	if err != nil {
		return err
	}
	return rowsChanged(res)
}

func execContextUnfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	_, err := db.ExecContext(ctx, `UPDATE orders SET shipped_at = now() WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func execContextConditional(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'SHIPPED', shipped_at = now() WHERE id = $1 AND status = 'PAID'`, id)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return errStale
	}
	return nil
}

func returningUnfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) (int64, error) {
	token := lock(ctx, rdb, "lock:coupon")
	if token == "" {
		return 0, errStale
	}
	defer unlock(ctx, rdb, "lock:coupon", token)
	var owner int64
	err := db.QueryRowContext(ctx, `UPDATE coupons SET owner_id = $2 WHERE id = $1 RETURNING owner_id`, id, 7).Scan(&owner) // want `unfenced write under a TTL lock`
	return owner, err
}

func returningConditional(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) (int64, error) {
	token := lock(ctx, rdb, "lock:coupon")
	if token == "" {
		return 0, errStale
	}
	defer unlock(ctx, rdb, "lock:coupon", token)
	var left int64
	err := db.QueryRowContext(ctx, `UPDATE coupons SET remaining = remaining - 1 WHERE id = $1 AND remaining > 0 RETURNING remaining`, id).Scan(&left)
	return left, err // sql.ErrNoRows when the coupon ran out, or a newer holder won
}

// The rows an UPDATE … RETURNING sends back are its outcome: asking only for
// the error drops them.
func returningErrOnly(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := lock(ctx, rdb, "lock:coupon")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:coupon", token)
	return db.QueryRowContext(ctx, `UPDATE coupons SET remaining = remaining - 1 WHERE id = $1 AND remaining > 0 RETURNING remaining`, id).Err() // want `result of the conditional write is ignored`
}

// A statement prepared before the lock is taken, run under it.
func preparedUnfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, ids []int64) error {
	stmt, err := db.PrepareContext(ctx, `UPDATE invoices SET sent = true WHERE id = $1`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	token := lock(ctx, rdb, "lock:invoices")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:invoices", token)
	for _, id := range ids {
		if _, err := stmt.ExecContext(ctx, id); err != nil { // want `unfenced write under a TTL lock`
			return err
		}
	}
	return nil
}

func preparedConditional(ctx context.Context, rdb *redis.Client, db *sql.DB, ids []int64) error {
	stmt, err := db.Prepare(`UPDATE invoices SET sent = true WHERE id = $1 AND sent = false`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	token := lock(ctx, rdb, "lock:invoices")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:invoices", token)
	for _, id := range ids {
		res, err := stmt.Exec(id)
		if err != nil {
			return err
		}
		if err := rowsChanged(res); err != nil {
			return err
		}
	}
	return nil
}

func txUnfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO order_events (order_id, kind) VALUES ($1, 'paid')`, id); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	return tx.Commit()
}

func txConditional(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if err := rowsChanged(res); err != nil {
		return err
	}
	return tx.Commit()
}

// UPDATE … RETURNING through Query: the rows are the outcome.
func queryReturning(ctx context.Context, rdb *redis.Client, db *sql.DB, customer int64) ([]int64, error) {
	token := lock(ctx, rdb, "lock:customer")
	if token == "" {
		return nil, errStale
	}
	defer unlock(ctx, rdb, "lock:customer", token)
	rows, err := db.QueryContext(ctx, `UPDATE orders SET status = 'PAID' WHERE customer_id = $1 AND status = 'PENDING' RETURNING id`, customer)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func queryReturningClosed(ctx context.Context, rdb *redis.Client, db *sql.DB, customer int64) error {
	token := lock(ctx, rdb, "lock:customer")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:customer", token)
	rows, err := db.QueryContext(ctx, `UPDATE orders SET status = 'PAID' WHERE customer_id = $1 AND status = 'PENDING' RETURNING id`, customer) // want `result of the conditional write is ignored`
	if err != nil {
		return err
	}
	return rows.Close()
}

func conn(ctx context.Context, rdb *redis.Client, c *sql.Conn, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	_, err := c.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

// A statement prepared on the DB, bound to a transaction with tx.Stmt.
func preparedInTx(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	stmt, err := db.PrepareContext(ctx, `UPDATE orders SET archived = true WHERE id = $1`)
	if err != nil {
		return err
	}
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.StmtContext(ctx, stmt).ExecContext(ctx, id); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	return tx.Commit()
}
