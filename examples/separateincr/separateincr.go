// Package separateincr looks like fenced, with one difference: it takes the lock
// with SETNX and draws its fencing token with an INCR of its own afterwards. A
// holder that pauses between the two draws its token after the next holder
// drew one, so its token is the larger, and the database takes its stale write
// over the newer one. A fencing token fences only when the lock service issues
// it atomically with the grant.
package separateincr

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

var release = redis.NewScript(`
if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
end
return 0`)

// Carrier tells where an order's parcel is.
type Carrier interface {
	Status(ctx context.Context, orderID int64) (string, error)
}

// SyncStatus copies the carrier's status of an order into the database.
func SyncStatus(ctx context.Context, rdb *redis.Client, db *sql.DB, carrier Carrier, orderID int64) error {
	key := "lock:order:" + strconv.FormatInt(orderID, 10)
	owner := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, owner, 10*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer release.Run(ctx, rdb, []string{key}, owner)

	status, err := carrier.Status(ctx, orderID)
	if err != nil {
		return err
	}
	// The token is drawn now, in a round trip of its own: whoever draws last
	// wins, not whoever holds the lock.
	token, err := rdb.Incr(ctx, key+":fence").Result()
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
