// Package service calls the repository under a lock.
package service

import (
	"context"

	"github.com/go-redsync/redsync/v4"

	"testcases/unfencedwrite/repo"
)

func Pay(ctx context.Context, rs *redsync.Redsync, orders *repo.Orders, id int64) error {
	m := rs.NewMutex("order")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if err := orders.MarkPaid(ctx, id); err != nil { // want `unfenced write \(in MarkPaid\) under a TTL lock`
		return err
	}
	if err := orders.Complete(ctx, id); err != nil { // want `unfenced write \(in MarkPaid\) under a TTL lock`
		return err
	}
	// Transition says who won: what follows runs for the winner only.
	if ok, err := orders.Transition(ctx, id, "PAID", "DONE"); err != nil || !ok {
		return err
	}
	return orders.Complete(ctx, id)
}

// Two calls deep, conditional and checked: nothing to report.
func Settle(ctx context.Context, rs *redsync.Redsync, orders *repo.Orders, id int64) error {
	m := rs.NewMutex("order")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	_, err := orders.Settle(ctx, id)
	return err
}
