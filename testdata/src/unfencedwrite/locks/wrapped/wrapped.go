// Package wrapped writes under locks taken through package locker: the
// TryLock … Unlock pair and the Mutex type are seen through facts.
package wrapped

import (
	"context"
	"database/sql"
	"time"

	"testcases/unfencedwrite/locks/locker"
)

func underTryLock(ctx context.Context, l *locker.Locker, db *sql.DB, id int64) error {
	token, ok := l.TryLock(ctx, "invoice", 10*time.Second)
	if !ok {
		return locker.ErrBusy
	}
	defer l.Unlock(ctx, "invoice", token)
	_, err := db.ExecContext(ctx, `UPDATE invoices SET number = nextval('invoice_numbers') WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func underTryLockConditional(ctx context.Context, l *locker.Locker, db *sql.DB, id int64) error {
	token, ok := l.TryLock(ctx, "invoice", 10*time.Second)
	if !ok {
		return locker.ErrBusy
	}
	defer l.Unlock(ctx, "invoice", token)
	res, err := db.ExecContext(ctx, `UPDATE invoices SET number = nextval('invoice_numbers') WHERE id = $1 AND number IS NULL`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return locker.ErrBusy
	}
	return nil
}

func underMutex(ctx context.Context, m *locker.Mutex, db *sql.DB, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := db.ExecContext(ctx, `UPDATE batches SET closed = true WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func underMutexConditional(ctx context.Context, m *locker.Mutex, db *sql.DB, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	res, err := db.ExecContext(ctx, `UPDATE batches SET closed = true WHERE id = $1 AND closed = false`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return locker.ErrBusy
	}
	return nil
}

// The function literal WithLock runs under the lock it holds.
func underWithLock(ctx context.Context, l *locker.Locker, db *sql.DB, id int64) error {
	return l.WithLock(ctx, "refund", func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, `UPDATE refunds SET sent_at = now() WHERE id = $1`, id) // want `unfenced write under a TTL lock`
		return err
	})
}

func underWithLockConditional(ctx context.Context, l *locker.Locker, db *sql.DB, id int64) error {
	return l.WithLock(ctx, "refund", func(ctx context.Context) error {
		res, err := db.ExecContext(ctx, `UPDATE refunds SET sent_at = now() WHERE id = $1 AND sent_at IS NULL`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return locker.ErrBusy
		}
		return nil
	})
}
