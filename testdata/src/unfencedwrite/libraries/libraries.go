// Package libraries holds writes under lock-library locks: their releases are
// safe, their writes still need a fence.
package libraries

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/redis/rueidis/rueidislock"
	"github.com/zeromicro/go-zero/core/stores/redis"
	"go.etcd.io/etcd/client/v3/concurrency"
)

func redsyncWrite(ctx context.Context, rs *redsync.Redsync, db *sql.DB, id int64) error {
	m := rs.NewMutex("order")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func bsmWrite(ctx context.Context, rc redislock.RedisClient, db *sql.DB, id int64) error {
	lock, err := redislock.Obtain(ctx, rc, "order", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	_, err = db.ExecContext(ctx, `INSERT INTO payouts (order_id) VALUES ($1)`, id) // want `unfenced write under a TTL lock`
	return err
}

func goZeroWrite(store *redis.Redis, db *sql.DB, id int64) error {
	l := redis.NewRedisLock(store, "order")
	ok, err := l.Acquire()
	if err != nil || !ok {
		return err
	}
	defer l.Release()
	_, err = db.Exec(`UPDATE accounts SET points = points + 10 WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func rueidisWrite(ctx context.Context, locker rueidislock.Locker, db *sql.DB, id int64) error {
	ctx, cancel, err := locker.WithContext(ctx, "order")
	if err != nil {
		return err
	}
	defer cancel()
	_, err = db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

// etcd's revision is a real fencing token.
func etcdFenced(ctx context.Context, s *concurrency.Session, db *sql.DB, id int64) error {
	m := concurrency.NewMutex(s, "/order")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	rev := m.Header().Revision
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, rev)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

func etcdUnfenced(ctx context.Context, s *concurrency.Session, db *sql.DB, id int64) error {
	m := concurrency.NewMutex(s, "/order")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	m.Unlock(ctx)
	return err
}

// The silent side of each library: writes the database refuses from a
// stale holder, their outcome checked.

func redsyncConditional(ctx context.Context, rs *redsync.Redsync, db *sql.DB, id int64) error {
	m := rs.NewMutex("order")
	if err := m.TryLockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errors.New("not pending")
	}
	return nil
}

func bsmConditional(ctx context.Context, rc redislock.RedisClient, db *sql.DB, id int64) error {
	lock, err := redislock.Obtain(ctx, rc, "order", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	res, err := db.ExecContext(ctx, `INSERT INTO payouts (order_id) VALUES ($1) ON CONFLICT (order_id) DO NOTHING`, id)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// The client form of bsm/redislock's Obtain.
func bsmClientWrite(ctx context.Context, locker *redislock.Client, db *sql.DB, id int64) error {
	lock, err := locker.Obtain(ctx, "order", 10*time.Second, &redislock.Options{RetryStrategy: redislock.NoRetry()})
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	_, err = db.ExecContext(ctx, `UPDATE orders SET payout_sent = true WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func bsmClientConditional(ctx context.Context, locker *redislock.Client, db *sql.DB, id int64) error {
	lock, err := locker.Obtain(ctx, "order", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	res, err := db.ExecContext(ctx, `UPDATE orders SET payout_sent = true WHERE id = $1 AND payout_sent = false`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errors.New("payout sent already")
	}
	return nil
}

func goZeroConditional(ctx context.Context, store *redis.Redis, db *sql.DB, id int64) error {
	l := redis.NewRedisLock(store, "order")
	l.SetExpire(10)
	ok, err := l.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	defer l.ReleaseCtx(ctx)
	res, err := db.ExecContext(ctx, `UPDATE accounts SET points = points + 10, bonus_day = current_date WHERE id = $1 AND bonus_day < current_date`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("bonus granted today already")
	}
	return nil
}

func rueidisConditional(ctx context.Context, locker rueidislock.Locker, db *sql.DB, id int64) error {
	ctx, cancel, err := locker.WithContext(ctx, "order")
	if err != nil {
		return err
	}
	defer cancel()
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errors.New("not pending")
	}
	return nil
}

func rueidisTryWrite(ctx context.Context, locker rueidislock.Locker, db *sql.DB, id int64) error {
	ctx, cancel, err := locker.TryWithContext(ctx, "order")
	if err != nil {
		return err // rueidislock.ErrNotLocked: someone else has it
	}
	defer cancel()
	_, err = db.ExecContext(ctx, `UPDATE orders SET status = 'SHIPPED' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func rueidisTryConditional(ctx context.Context, locker rueidislock.Locker, db *sql.DB, id int64) error {
	ctx, cancel, err := locker.TryWithContext(ctx, "order")
	if err != nil {
		return err
	}
	defer cancel()
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'SHIPPED' WHERE id = $1 AND status = 'PAID'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errors.New("not paid")
	}
	return nil
}

// A fenced write whose outcome nobody looks at: the database refuses the
// stale write and the code carries on as if it had won.
func etcdFencedIgnored(ctx context.Context, s *concurrency.Session, db *sql.DB, id int64) error {
	m := concurrency.NewMutex(s, "/order")
	if err := m.TryLock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, m.Header().Revision) // want `result of the conditional write is ignored`
	return err
}

// A spin lock: TryLock until it is taken.
func redsyncSpin(rs *redsync.Redsync, db *sql.DB, id int64) error {
	m := rs.NewMutex("order")
	for m.TryLock() != nil {
		time.Sleep(100 * time.Millisecond)
	}
	defer m.Unlock()
	_, err := db.Exec(`UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

// Released before the function returns: what follows is not under the lock.
func redsyncExplicitUnlock(rs *redsync.Redsync, db *sql.DB, id int64) error {
	m := rs.NewMutex("order")
	if err := m.Lock(); err != nil {
		return err
	}
	if _, err := db.Exec(`UPDATE orders SET status = 'PAID' WHERE id = $1`, id); err != nil { // want `unfenced write under a TTL lock`
		m.Unlock()
		return err
	}
	if ok, err := m.Unlock(); !ok || err != nil {
		return errors.New("lock lost")
	}
	_, err := db.Exec(`INSERT INTO notifications (order_id) VALUES ($1)`, id)
	return err
}
