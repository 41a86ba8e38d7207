// Package repo is a repository whose methods claim a row with a conditional
// UPDATE and say who won: ErrAlreadyPaid, false, or the row count.
package repo

import (
	"context"
	"database/sql"
	"errors"
)

var ErrAlreadyPaid = errors.New("already paid")

type Orders struct{ DB *sql.DB }

// MarkPaid returns ErrAlreadyPaid when another caller won.
func (o *Orders) MarkPaid(ctx context.Context, id int64) error {
	res, err := o.DB.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrAlreadyPaid
	}
	return nil
}

// TryShip says true to the winner.
func (o *Orders) TryShip(ctx context.Context, id int64) (bool, error) {
	res, err := o.DB.ExecContext(ctx, `UPDATE orders SET status = 'SHIPPED' WHERE id = $1 AND status = 'PAID'`, id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return err == nil && n == 1, err
}

// Hold returns how many seats it held: 1 for the winner.
func (o *Orders) Hold(ctx context.Context, seat int64, holder string) (int64, error) {
	res, err := o.DB.ExecContext(ctx, `UPDATE seats SET holder = $2 WHERE id = $1 AND holder IS NULL`, seat, holder)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Credit adds points: not conditional, a repeat credits twice.
func (o *Orders) Credit(ctx context.Context, id int64, points int) error {
	_, err := o.DB.ExecContext(ctx, `UPDATE accounts SET points = points + $1 WHERE id = $2`, points, id)
	return err
}
