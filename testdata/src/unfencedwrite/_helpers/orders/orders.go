package orders

import (
	"context"
	"database/sql"
	"time"

	"testcases/unfencedwrite/_helpers/lease"
)

func byLease(ctx context.Context, db *sql.DB, id int64) error {
	l, err := lease.Acquire(ctx, "order", 10*time.Second)
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	_, err = db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func byKey(ctx context.Context, db *sql.DB, id int64) error {
	if err := lease.Lock(ctx, "order"); err != nil {
		return err
	}
	defer lease.Unlock(ctx, "order")
	_, err := db.ExecContext(ctx, `INSERT INTO payouts (order_id) VALUES ($1)`, id) // want `unfenced write under a TTL lock`
	return err
}

// A conditional write needs no fence, helper or not.
func conditional(ctx context.Context, db *sql.DB, id int64) error {
	l, err := lease.Acquire(ctx, "order", 10*time.Second)
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}
