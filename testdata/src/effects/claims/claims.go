// want package:"effects"

// Package claims holds repository methods whose conditional write decides
// which caller won, and whose result says so: their summaries carry a claim
// their callers can branch on. Look-alikes whose result does not tell carry
// none.
package claims

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var ErrAlreadyPaid = errors.New("already paid")

type Orders struct{ db *sql.DB }

// MarkPaid returns ErrAlreadyPaid when another caller won.
func (o *Orders) MarkPaid(ctx context.Context, id int64) error { // want MarkPaid:`effects write Update orders claim orders nil-error`
	res, err := o.db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n != 1 {
		return ErrAlreadyPaid
	}
	return nil
}

// TryPay says true to the winner.
func (o *Orders) TryPay(ctx context.Context, id int64) (bool, error) { // want TryPay:`effects write Update orders claim orders true`
	res, err := o.db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	return true, nil
}

// Reserve returns the row count for the caller to judge.
func (o *Orders) Reserve(ctx context.Context, id int64) (int64, error) { // want Reserve:`effects write Update seats claim seats count`
	res, err := o.db.ExecContext(ctx, `UPDATE seats SET holder = $2 WHERE id = $1 AND holder IS NULL`, id, "me")
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Pay wraps MarkPaid and passes its answer on, wrapped: a claim too.
func (o *Orders) Pay(ctx context.Context, id int64) error { // want Pay:`effects write Update orders claim orders nil-error`
	if err := o.MarkPaid(ctx, id); err != nil {
		return fmt.Errorf("pay %d: %w", id, err)
	}
	return nil
}

// Quiet swallows the loss: nil from both branches tells the caller nothing.
func (o *Orders) Quiet(ctx context.Context, id int64) error { // want Quiet:`effects write Update orders`
	res, err := o.db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	return nil
}

// Blind makes a write that does not admit one caller: no claim to make.
func (o *Orders) Blind(ctx context.Context, id int64) error { // want Blind:`effects write Update orders`
	res, err := o.db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrAlreadyPaid
	}
	return nil
}

// Retry rereads the version and tries again: every caller wins in the end,
// so its nil says nothing about who was first.
func (o *Orders) Retry(ctx context.Context, id int64) error { // want Retry:`effects write Update orders read orders`
	for range 3 {
		var v int64
		if err := o.db.QueryRowContext(ctx, `SELECT version FROM orders WHERE id = $1`, id).Scan(&v); err != nil {
			return err
		}
		res, err := o.db.ExecContext(ctx, `UPDATE orders SET note = 'x', version = version + 1 WHERE id = $1 AND version = $2`, id, v)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
	}
	return ErrAlreadyPaid
}
