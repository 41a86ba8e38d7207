// Package uniquetask records each completion in a task table keyed by the order:
// the key admits one row per order, so the worker whose INSERT finds the row
// already there knows another did the work, and no distributed lock is needed.
package uniquetask

import (
	"context"
	"database/sql"
	"errors"
)

// ErrAlreadyPaid means another worker completed the order first.
var ErrAlreadyPaid = errors.New("order already paid")

// CompleteOrder marks an order paid and credits the customer's points, once.
func CompleteOrder(ctx context.Context, db *sql.DB, orderID int64, points int) error {
	// The task row commits with the work it stands for, or not at all.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // a no-op once committed

	res, err := tx.ExecContext(ctx, `INSERT INTO order_completions (order_id) VALUES ($1) ON CONFLICT DO NOTHING`, orderID)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrAlreadyPaid
	}
	if _, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, orderID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET points = points + $1
		WHERE id = (SELECT customer_id FROM orders WHERE id = $2)`, points, orderID); err != nil {
		return err
	}
	return tx.Commit()
}
