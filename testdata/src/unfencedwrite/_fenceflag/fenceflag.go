// Package fenceflag fences its writes with an epoch column: it is checked with
// -fence=epoch. (The leading underscore of its directory keeps it out of
// ./unfencedwrite/..., which runs with the default flag.)
package fenceflag

import (
	"context"
	"database/sql"
	"errors"

	"github.com/redis/go-redis/v9"
)

var errStale = errors.New("stale: a newer holder won")

// acquire takes KEYS[1] and returns the next epoch, or 0 when it is held.
var acquire = redis.NewScript(`
if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
	return redis.call("incr", KEYS[2])
end
return 0`)

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func fenced(ctx context.Context, rdb *redis.Client, db *sql.DB, owner string, id, amount int64) error {
	epoch, err := acquire.Run(ctx, rdb, []string{"lock:account", "epoch:account"}, owner, 10000).Int64()
	if err != nil || epoch == 0 {
		return errStale
	}
	defer release.Run(ctx, rdb, []string{"lock:account"}, owner)
	res, err := db.ExecContext(ctx, `UPDATE accounts SET balance = $2, epoch = $3 WHERE id = $1 AND epoch < $3`, id, amount, epoch)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errStale
	}
	return nil
}

func fencedIgnored(ctx context.Context, rdb *redis.Client, db *sql.DB, owner string, id, amount int64) error {
	epoch, err := acquire.Run(ctx, rdb, []string{"lock:account", "epoch:account"}, owner, 10000).Int64()
	if err != nil || epoch == 0 {
		return errStale
	}
	defer release.Run(ctx, rdb, []string{"lock:account"}, owner)
	_, err = db.ExecContext(ctx, `UPDATE accounts SET balance = $2, epoch = $3 WHERE id = $1 AND epoch < $3`, id, amount, epoch) // want `result of the conditional write is ignored`
	return err
}

// The fix fences with the column the flag names.
func unfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, owner string, id, amount int64) error {
	epoch, err := acquire.Run(ctx, rdb, []string{"lock:account", "epoch:account"}, owner, 10000).Int64()
	if err != nil || epoch == 0 {
		return errStale
	}
	defer release.Run(ctx, rdb, []string{"lock:account"}, owner)
	_, err = db.ExecContext(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1`, id, amount) // want `unfenced write under a TTL lock`
	return err
}

// It stores the epoch without comparing it: the fix compares on the same
// placeholder.
func storesOnly(ctx context.Context, rdb *redis.Client, db *sql.DB, owner string, id, amount int64) error {
	epoch, err := acquire.Run(ctx, rdb, []string{"lock:account", "epoch:account"}, owner, 10000).Int64()
	if err != nil || epoch == 0 {
		return errStale
	}
	defer release.Run(ctx, rdb, []string{"lock:account"}, owner)
	_, err = db.ExecContext(ctx, `UPDATE accounts SET balance = $2, epoch = $3 WHERE id = $1`, id, amount, epoch) // want `unfenced write under a TTL lock`
	return err
}
