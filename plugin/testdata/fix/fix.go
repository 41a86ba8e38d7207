// Package fix holds findings whose suggested fixes .ci/golangci applies with
// --fix; fix.go.golden is the expected result.
package fix

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

const lockTTL = 30 * time.Second

var errBusy = errors.New("busy")

func work() {}

// notify stands for a call the lock exists for, so needlesslock stays quiet.
var notify func(context.Context, int64) error

// twoSteps gets two fixes: the TTL folded into the SETNX, and a
// compare-and-delete script for the DEL.
func twoSteps(ctx context.Context, rdb *redis.Client, id string) {
	token := rand.Text()
	key := "lock:" + id
	ok := rdb.SetNX(ctx, key, token, 0).Val() // want "SETNX then EXPIRE is not atomic"
	if !ok {
		return
	}
	rdb.Expire(ctx, key, lockTTL)
	work()
	rdb.Del(ctx, key) // want "lock released with plain DEL"
}

var acquire = redis.NewScript(`
if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
	return redis.call("incr", KEYS[2])
end
return 0`)

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// unfenced gets the fence, in the column the fence setting names first.
func unfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, owner string, id, amount int64) error {
	epoch, err := acquire.Run(ctx, rdb, []string{"lock:account", "epoch:account"}, owner, 10000).Int64()
	if err != nil || epoch == 0 {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{"lock:account"}, owner)
	if err := notify(ctx, id); err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1`, id, amount) // want "unfenced write under a TTL lock"
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errBusy
	}
	return nil
}
