// Package ownerchecked fixes the release: each holder stores a random token and
// releases with an atomic compare-and-delete. A paused holder can no longer delete
// another's lock, but it can still write after its lease ran out.
package ownerchecked

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

var release = redis.NewScript(`
if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
end
return 0`)

// CompleteOrder marks an order paid and credits the customer's points.
func CompleteOrder(ctx context.Context, rdb *redis.Client, db *sql.DB, orderID int64, points int) error {
	key := "lock:order:" + strconv.FormatInt(orderID, 10)
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer release.Run(ctx, rdb, []string{key}, token)

	if _, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, orderID); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET points = points + $1
		WHERE id = (SELECT customer_id FROM orders WHERE id = $2)`, points, orderID)
	return err
}
