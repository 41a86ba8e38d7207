// Package usequeries runs SQL text defined in package queries under a lock.
package usequeries

import (
	"context"

	"github.com/go-redsync/redsync/v4"

	"testcases/unfencedwrite/queries"
)

func pay(ctx context.Context, rs *redsync.Redsync, id int64) error {
	m := rs.NewMutex("order")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if _, err := queries.DB.ExecContext(ctx, queries.MarkPaid(), id); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	res, err := queries.DB.ExecContext(ctx, queries.Ship, id)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}
