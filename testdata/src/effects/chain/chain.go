// want package:"effects"

// Package chain reaches an HTTP call through a chain of calls declared
// callers first, and through mutual recursion: every function on the way must
// say external, whatever order the summaries are computed in.
package chain

import (
	"context"
	"database/sql"
	"net/http"
)

func Start(ctx context.Context, db *sql.DB, id int64) error { // want Start:`effects write Update orders external net/http.Post`
	if _, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id); err != nil {
		return err
	}
	return step1(ctx, id)
}

func step1(ctx context.Context, id int64) error { return step2(ctx, id) }  // want step1:`effects external net/http.Post`
func step2(ctx context.Context, id int64) error { return step3(ctx, id) }  // want step2:`effects external net/http.Post`
func step3(ctx context.Context, id int64) error { return step4(ctx, id) }  // want step3:`effects external net/http.Post`
func step4(ctx context.Context, id int64) error { return step5(ctx, id) }  // want step4:`effects external net/http.Post`
func step5(ctx context.Context, id int64) error { return step6(ctx, id) }  // want step5:`effects external net/http.Post`
func step6(ctx context.Context, id int64) error { return notify(ctx, id) } // want step6:`effects external net/http.Post`

func notify(ctx context.Context, id int64) error { // want notify:`effects external net/http.Post`
	_, err := http.Post("http://127.0.0.1:9/hook", "text/plain", nil)
	return err
}

// Ping and pong call each other; only pong posts. Both post, in the end.
func Ping(ctx context.Context, n int) error { // want Ping:`effects external net/http.Post`
	if n == 0 {
		return nil
	}
	return pong(ctx, n-1)
}

func pong(ctx context.Context, n int) error { // want pong:`effects external net/http.Post`
	if n%7 == 0 {
		if _, err := http.Post("http://127.0.0.1:9/pong", "text/plain", nil); err != nil {
			return err
		}
	}
	return Ping(ctx, n)
}

// Even and odd write in turn: each write is listed once.
func Even(ctx context.Context, db *sql.DB, n int) { // want Even:`effects write Update counters write Update counters`
	if n > 0 {
		db.ExecContext(ctx, `UPDATE counters SET even = even + 1 WHERE id = 1`)
		odd(ctx, db, n-1)
	}
}

func odd(ctx context.Context, db *sql.DB, n int) { // want odd:`effects write Update counters write Update counters`
	if n > 0 {
		db.ExecContext(ctx, `UPDATE counters SET odd = odd + 1 WHERE id = 1`)
		Even(ctx, db, n-1)
	}
}

// Pure computes and says nothing.
func Pure(a, b int) int { return a + b }
