// Package utilcalls computes with a utility package inside its lock
// regions: a call that only computes leaves the region database work.
package utilcalls

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/go-redsync/redsync/v4"

	"testcases/needlesslock/utilcalls/money"
)

func Credit(ctx context.Context, rs *redsync.Redsync, db *sql.DB, id int64, amount float64) error {
	m := rs.NewMutex("lock:account")
	if err := m.Lock(); err != nil { // want `lock only guards database work: read, check and update accounts`
		return err
	}
	defer m.Unlock()
	var balance float64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&balance); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = $1 WHERE id = $2`, money.Add(balance, amount), id)
	return err
}

func CreditCents(ctx context.Context, rs *redsync.Redsync, db *sql.DB, id int64, c money.Cents) error {
	m := rs.NewMutex("lock:account")
	if err := m.Lock(); err != nil { // want `lock only guards database work`
		return err
	}
	defer m.Unlock()
	var balance int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&balance); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = $1 WHERE id = $2`, int64(c.Plus(balance)), id)
	return err
}

// Silent: a helper that runs code it is handed, and one that posts.

func Labelled(ctx context.Context, rs *redsync.Redsync, db *sql.DB, id int64, amount float64) error {
	m := rs.NewMutex("lock:account")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	note := money.Label(amount, func(f float64) string { return fmt.Sprint(f) })
	_, err := db.ExecContext(ctx, `UPDATE accounts SET note = $1 WHERE id = $2`, note, id)
	return err
}

func Reported(ctx context.Context, rs *redsync.Redsync, db *sql.DB, id int64, amount float64) error {
	m := rs.NewMutex("lock:account")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if _, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance + $1 WHERE id = $2`, amount, id); err != nil {
		return err
	}
	return money.Report("http://ledger.example/credit")
}
