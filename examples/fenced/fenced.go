// Package fenced takes a lock that hands out a monotonically increasing fencing
// token, and makes every write conditional on it: a holder whose lease ran out
// carries an older token, and the database refuses its write. The lock earns
// its keep: it guards a capture at a payment provider that has no idempotency
// key, which the database alone could not serialize.
package fenced

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// ErrBusy means another worker holds the order's lock.
var ErrBusy = errors.New("order is being completed by another worker")

// ErrStale means a newer lock holder has written since this one took the lock.
var ErrStale = errors.New("lock lease expired: a newer holder has written")

// acquire takes the lock and returns the next fencing token, or 0 when the lock
// is held. The token counter lives beside the lock and only ever grows.
var acquire = redis.NewScript(`
if redis.call("set", KEYS[1], ARGV[1], "nx", "px", ARGV[2]) then
	return redis.call("incr", KEYS[2])
end
return 0`)

var release = redis.NewScript(`
if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
end
return 0`)

// Payments captures money at an external provider.
type Payments interface {
	Capture(ctx context.Context, orderID int64) error
}

// CompleteOrder captures the payment and marks the order paid, fenced by the
// lock's token.
func CompleteOrder(ctx context.Context, rdb *redis.Client, db *sql.DB, pay Payments, orderID int64) error {
	key := "lock:order:" + strconv.FormatInt(orderID, 10)
	owner := uuid.NewString()
	token, err := acquire.Run(ctx, rdb, []string{key, key + ":fence"}, owner, (10 * time.Second).Milliseconds()).Int64()
	if err != nil {
		return err
	}
	if token == 0 {
		return ErrBusy
	}
	defer release.Run(ctx, rdb, []string{key}, owner)

	if err := pay.Capture(ctx, orderID); err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID', fencing_token = $2
		WHERE id = $1 AND fencing_token < $2`, orderID, token)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrStale
	}
	return nil
}
