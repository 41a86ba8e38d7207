// Package service takes locks around calls into other packages: their
// summaries decide.
package service

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/go-redsync/redsync/v4"

	"testcases/needlesslock/notify"
	"testcases/needlesslock/store"
)

func Pay(ctx context.Context, rs *redsync.Redsync, orders *store.Orders, id int64) error {
	m := rs.NewMutex("lock:order")
	if err := m.Lock(); err != nil { // want `lock only guards database work: read, check and update orders`
		return err
	}
	defer m.Unlock()
	s, err := orders.Status(ctx, id)
	if err != nil || s != "PENDING" {
		return err
	}
	return orders.MarkPaid(ctx, id)
}

func PayAndNotify(ctx context.Context, rs *redsync.Redsync, orders *store.Orders, db *sql.DB, hc *http.Client, id int64) error {
	m := rs.NewMutex("lock:order")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if err := orders.MarkPaid(ctx, id); err != nil {
		return err
	}
	return notify.Paid(ctx, db, hc, id)
}
