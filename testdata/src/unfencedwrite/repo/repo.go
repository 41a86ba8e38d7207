// Package repo is a repository package: its methods write SQL, and the facts
// about them reach the services that call them under a lock.
package repo

import (
	"context"
	"database/sql"
)

// Orders writes orders.
type Orders struct{ DB *sql.DB }

const markPaid = `UPDATE orders SET status = 'PAID' WHERE id = $1`

// MarkPaid overwrites whatever state the order is in.
func (o *Orders) MarkPaid(ctx context.Context, id int64) error {
	_, err := o.DB.ExecContext(ctx, markPaid, id)
	return err
}

// Transition moves the order from one state to another, and says whether it won.
func (o *Orders) Transition(ctx context.Context, id int64, from, to string) (bool, error) {
	res, err := o.DB.ExecContext(ctx, `UPDATE orders SET status = $3 WHERE id = $1 AND status = $2`, id, from, to)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Complete marks the order paid through MarkPaid, one call deeper.
func (o *Orders) Complete(ctx context.Context, id int64) error {
	return o.MarkPaid(ctx, id)
}

// Settle marks a pending order paid through Transition, one call deeper; the
// outcome is checked there.
func (o *Orders) Settle(ctx context.Context, id int64) (bool, error) {
	return o.Transition(ctx, id, "PENDING", "PAID")
}
