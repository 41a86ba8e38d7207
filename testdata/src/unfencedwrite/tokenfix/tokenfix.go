// Package tokenfix holds an unfenced write whose lock yields a token in scope:
// the suggested fix adds the fence.
package tokenfix

import (
	"context"
	"database/sql"
	"errors"

	"github.com/redis/go-redis/v9"
)

var acquire = redis.NewScript(`
if redis.call("exists", KEYS[1]) == 0 then
	local t = redis.call("incr", KEYS[2])
	redis.call("set", KEYS[1], t, "px", ARGV[1])
	return t
end
return 0`)

func complete(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token, err := acquire.Run(ctx, rdb, []string{"lock:order", "fence:order"}, 10000).Int64()
	if err != nil || token == 0 {
		return errors.New("busy")
	}
	defer rdb.Del(ctx, "lock:order")
	_, err = db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

// It stores the token already, but does not compare it: the fix adds only the
// predicate, on the same placeholder.
func storesToken(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token, err := acquire.Run(ctx, rdb, []string{"lock:order", "fence:order"}, 10000).Int64()
	if err != nil || token == 0 {
		return errors.New("busy")
	}
	defer rdb.Del(ctx, "lock:order")
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID', fencing_token = $2 WHERE id = $1`, id, token) // want `unfenced write under a TTL lock`
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}
