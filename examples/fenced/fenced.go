// Package fenced takes a lock that hands out a monotonically increasing fencing
// token, and makes its write conditional on it: a holder whose lease ran out
// carries an older token, and the database refuses its write. The lock earns
// its keep: it keeps workers from asking the rate-limited carrier about the same
// order at once, which the database alone could not arrange.
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

// ErrBusy means another worker is syncing the order.
var ErrBusy = errors.New("order is being synced by another worker")

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

// Carrier tells where an order's parcel is.
type Carrier interface {
	Status(ctx context.Context, orderID int64) (string, error)
}

// SyncStatus copies the carrier's status of an order into the database. A
// holder whose lease ran out took its reading before the next holder did, so
// the fence keeps that older reading from overwriting the newer one.
func SyncStatus(ctx context.Context, rdb *redis.Client, db *sql.DB, carrier Carrier, orderID int64) error {
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

	status, err := carrier.Status(ctx, orderID)
	if err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = $2, fencing_token = $1
		WHERE id = $3 AND fencing_token < $1`, token, status, orderID)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrStale
	}
	return nil
}
