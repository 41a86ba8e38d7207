// Package libraries holds writes under lock-library locks: their releases are
// safe, their writes still need a fence.
package libraries

import (
	"context"
	"database/sql"
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
