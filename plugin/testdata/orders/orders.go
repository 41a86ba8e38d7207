// Package orders holds what each lockvet check reports. A trailing want
// comment lists the findings .ci/golangci expects on its line, one quoted
// message substring each; a line without one must have none.
package orders

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/plugintest/lease"
)

var errBusy = errors.New("busy")

// naive: a constant value, a plain DEL, unfenced writes, and nothing but SQL
// under the lock.
func naive(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key := "lock:order:" + strconv.FormatInt(id, 10)
	ok, err := rdb.SetNX(ctx, key, 1, 10*time.Second).Result() // want "lock value is a constant" "lock only guards database work"
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer rdb.Del(ctx, key)                                                             // want "lock released with plain DEL"
	_, err = db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want "unfenced write under a TTL lock"
	return err
}

// byLease holds a lock from the in-house client that the acquire and release
// settings name.
func byLease(ctx context.Context, db *sql.DB, id int64) error {
	l, err := lease.Acquire(ctx, "order", 10*time.Second)
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	if err := notify(ctx, id); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE orders SET status = 'SHIPPED' WHERE id = $1`, id) // want "unfenced write under a TTL lock"
	return err
}

// notify stands for a call the lock exists for, so needlesslock stays quiet.
var notify func(context.Context, int64) error
