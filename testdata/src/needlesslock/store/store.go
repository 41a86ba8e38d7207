// Package store is a repository: only database work.
package store

import (
	"context"
	"database/sql"
)

// Orders reads and writes orders.
type Orders struct{ DB *sql.DB }

// Status reads an order's status.
func (o *Orders) Status(ctx context.Context, id int64) (string, error) {
	var s string
	err := o.DB.QueryRowContext(ctx, `SELECT status FROM orders WHERE id = $1`, id).Scan(&s)
	return s, err
}

// MarkPaid writes the order's status.
func (o *Orders) MarkPaid(ctx context.Context, id int64) error {
	_, err := o.DB.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id)
	return err
}
