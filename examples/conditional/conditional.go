// Package conditional completes an order without a distributed lock: the UPDATE
// that marks the order paid matches only a pending order, so of two workers
// completing the same order the database lets exactly one through, however long
// either of them pauses.
package conditional

import (
	"context"
	"database/sql"
	"errors"
)

// ErrAlreadyPaid means another worker completed the order first.
var ErrAlreadyPaid = errors.New("order already paid")

// CompleteOrder marks an order paid and credits the customer's points, once.
func CompleteOrder(ctx context.Context, db *sql.DB, orderID int64, points int) error {
	// The points go with the status change or not at all.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // a no-op once committed

	res, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, orderID)
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
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET points = points + $1
		WHERE id = (SELECT customer_id FROM orders WHERE id = $2)`, points, orderID); err != nil {
		return err
	}
	return tx.Commit()
}
