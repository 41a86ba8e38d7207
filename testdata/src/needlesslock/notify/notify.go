// Package notify records a notification and sends a webhook: its summary says
// external.
package notify

import (
	"context"
	"database/sql"
	"net/http"
)

// Paid records and announces a payment.
func Paid(ctx context.Context, db *sql.DB, hc *http.Client, id int64) error {
	if _, err := db.ExecContext(ctx, `INSERT INTO outbox (order_id) VALUES ($1)`, id); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", "http://127.0.0.1:9/hook", nil)
	if err != nil {
		return err
	}
	_, err = hc.Do(req)
	return err
}
