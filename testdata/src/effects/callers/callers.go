// want package:"effects"

// Package callers uses another package's claims: a write on the winner's
// branch is serialized by the claim, one after a dropped claim is not.
package callers

import (
	"context"
	"database/sql"

	"testcases/effects/claims"
)

// Credit writes only for the winner of MarkPaid.
func Credit(ctx context.Context, o *claims.Orders, db *sql.DB, id int64) error { // want Credit:`effects write Update orders write Update accounts\(serialized\) claim orders nil-error`
	if err := o.MarkPaid(ctx, id); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET points = points + 10 WHERE id = $1`, id)
	return err
}

// Dropped throws the claim's answer away: its write is not serialized.
func Dropped(ctx context.Context, o *claims.Orders, db *sql.DB, id int64) { // want Dropped:`effects write Update orders write Update accounts`
	_ = o.MarkPaid(ctx, id)
	db.ExecContext(ctx, `UPDATE accounts SET points = points + 10 WHERE id = $1`, id)
}

// Won writes for the winner of TryPay and of Reserve.
func Won(ctx context.Context, o *claims.Orders, db *sql.DB, id int64) { // want Won:`effects write Update orders write Update accounts\(serialized\) write Update seats write Update tickets\(serialized\)`
	if ok, err := o.TryPay(ctx, id); err == nil && ok {
		db.ExecContext(ctx, `UPDATE accounts SET points = points + 10 WHERE id = $1`, id)
	}
	if n, err := o.Reserve(ctx, id); err == nil && n == 1 {
		db.ExecContext(ctx, `UPDATE tickets SET issued = true WHERE seat = $1`, id)
	}
}
