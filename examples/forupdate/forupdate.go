// Package forupdate serializes on the order's row instead of a Redis key: SELECT
// … FOR UPDATE holds the row until the transaction ends, with no lease to run
// out, so a second worker waits for the first and then finds the order paid.
package forupdate

import (
	"context"
	"database/sql"
	"errors"
)

// ErrAlreadyPaid means another worker completed the order first.
var ErrAlreadyPaid = errors.New("order already paid")

// CompleteOrder marks an order paid and credits the customer's points, once.
func CompleteOrder(ctx context.Context, db *sql.DB, orderID int64, points int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // a no-op once committed

	var status string
	if err := tx.QueryRowContext(ctx, `SELECT status FROM orders WHERE id = $1 FOR UPDATE`, orderID).Scan(&status); err != nil {
		return err
	}
	if status != "PENDING" {
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
