// Package lookalike holds calls that look like SQL and are not.
package lookalike

import (
	"context"
	"os/exec"
)

// Shell runs commands; its Exec is not SQL.
type Shell struct{}

func (Shell) Exec(cmd string, args ...any) error { return nil }

func (Shell) ExecContext(ctx context.Context, cmd string, args ...any) (int, error) { return 0, nil }

// Runner declares the same names as sqlc's DBTX, with results that are not
// database/sql's or pgx's.
type Runner interface {
	ExecContext(context.Context, string, ...interface{}) (string, error)
	Exec(string, ...interface{}) error
}

func calls(ctx context.Context, s Shell, r Runner, id int64) {
	s.Exec("UPDATE orders SET status = 'PAID' WHERE id = $1", id)
	s.ExecContext(ctx, "DELETE FROM orders", id)
	r.ExecContext(ctx, "UPDATE orders SET status = 'PAID' WHERE id = $1", id)
	r.Exec("UPDATE orders SET status = 'PAID'")
	exec.CommandContext(ctx, "psql", "-c", "UPDATE orders SET status = 'PAID'").Run()
	_ = "UPDATE orders SET status = 'PAID' WHERE id = $1"
}
