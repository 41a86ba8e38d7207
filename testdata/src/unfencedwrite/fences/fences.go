// Package fences holds each way a write can be refused to a holder whose lease
// ran out: silent when the code looks at the outcome, reported when it does
// not, since the refused write then passes as done.
package fences

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errStale = errors.New("stale: a newer holder won")

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func lock(ctx context.Context, rdb *redis.Client, key string) string {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return ""
	}
	return token
}

func unlock(ctx context.Context, rdb *redis.Client, key, token string) {
	unlockScript.Run(ctx, rdb, []string{key}, token)
}

// An INCR in a round trip of its own after the lock is taken is no fencing
// token: a holder that pauses before it draws a newer one than its successor.

func incrFenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id string) error {
	owner := lock(ctx, rdb, "lock:job:"+id)
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:job:"+id, owner)
	fence, err := rdb.Incr(ctx, "fence:"+id).Result()
	if err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, `UPDATE jobs SET state = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, fence) // want `write to jobs compares fencing_token with an INCR taken after the lock, which is not a fencing token: a holder that pauses before it draws a newer token than its successor's; INCR in the script that takes the lock and use its result`
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errStale
	}
	return nil
}

func incrFencedIgnored(ctx context.Context, rdb *redis.Client, db *sql.DB, id string) error {
	owner := lock(ctx, rdb, "lock:job:"+id)
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:job:"+id, owner)
	fence, err := rdb.Incr(ctx, "fence:"+id).Result()
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE jobs SET state = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, fence) // want `write to jobs compares fencing_token with an INCR taken after the lock`
	return err
}

// A fencing token from the Lua script that takes the lock.

var acquireWithToken = redis.NewScript(`
if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
	return redis.call("incr", KEYS[2])
end
return 0`)

func scriptFenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key, owner := fmt.Sprintf("lock:ledger:%d", id), uuid.NewString()
	fence, err := acquireWithToken.Run(ctx, rdb, []string{key, "fence:ledger"}, owner, 10000).Int64()
	if err != nil || fence == 0 {
		return errStale
	}
	defer unlock(ctx, rdb, key, owner)
	res, err := db.ExecContext(ctx, `UPDATE ledgers SET closed = true, fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

func scriptFencedIgnored(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key, owner := fmt.Sprintf("lock:ledger:%d", id), uuid.NewString()
	fence, err := acquireWithToken.Run(ctx, rdb, []string{key, "fence:ledger"}, owner, 10000).Int64()
	if err != nil || fence == 0 {
		return errStale
	}
	defer unlock(ctx, rdb, key, owner)
	_, err = db.ExecContext(ctx, `UPDATE ledgers SET closed = true, fencing_token = $2 WHERE id = $1 AND fencing_token <= $2`, id, fence) // want `result of the conditional write is ignored`
	return err
}

// A state machine: the WHERE tests the status the SET moves on.

func stateChecked(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	owner := lock(ctx, rdb, "lock:refund")
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:refund", owner)
	res, err := db.ExecContext(ctx, `UPDATE refunds SET status = 'SENT' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errStale
	}
	return nil
}

func stateIgnored(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	owner := lock(ctx, rdb, "lock:refund")
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:refund", owner)
	_, err := db.ExecContext(ctx, `UPDATE refunds SET status = 'SENT' WHERE id = $1 AND status = 'PENDING'`, id) // want `result of the conditional write is ignored`
	return err
}

// Optimistic concurrency: a version the SET bumps.

func versionChecked(ctx context.Context, rdb *redis.Client, db *sql.DB, id, version int64, body string) error {
	owner := lock(ctx, rdb, "lock:doc")
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:doc", owner)
	res, err := db.ExecContext(ctx, `UPDATE documents SET body = $2, version = version + 1 WHERE id = $1 AND version = $3`, id, body, version)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

func versionIgnored(ctx context.Context, rdb *redis.Client, db *sql.DB, id, version int64, body string) error {
	owner := lock(ctx, rdb, "lock:doc")
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:doc", owner)
	_, err := db.ExecContext(ctx, `UPDATE documents SET body = $2, version = version + 1 WHERE id = $1 AND version = $3`, id, body, version) // want `result of the conditional write is ignored`
	return err
}

// A stock that the WHERE keeps from going below zero.

func stockChecked(ctx context.Context, rdb *redis.Client, db *sql.DB, sku string) error {
	owner := lock(ctx, rdb, "lock:sku:"+sku)
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:sku:"+sku, owner)
	res, err := db.ExecContext(ctx, `UPDATE inventory SET stock = stock - 1 WHERE sku = $1 AND stock > 0`, sku)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("sold out")
	}
	return nil
}

func stockIgnored(ctx context.Context, rdb *redis.Client, db *sql.DB, sku string) error {
	owner := lock(ctx, rdb, "lock:sku:"+sku)
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:sku:"+sku, owner)
	_, err := db.ExecContext(ctx, `UPDATE inventory SET stock = stock - 1 WHERE sku = $1 AND stock > 0`, sku) // want `result of the conditional write is ignored`
	return err
}

// An upsert whose DO UPDATE is fenced by its own WHERE.

const upsertBalance = `INSERT INTO balances (account_id, amount, fencing_token) VALUES ($1, $2, $3)
	ON CONFLICT (account_id) DO UPDATE SET amount = EXCLUDED.amount, fencing_token = EXCLUDED.fencing_token
	WHERE balances.fencing_token < EXCLUDED.fencing_token`

const overwriteBalance = `INSERT INTO balances (account_id, amount) VALUES ($1, $2)
	ON CONFLICT (account_id) DO UPDATE SET amount = EXCLUDED.amount`

func upsertFenced(ctx context.Context, rdb *redis.Client, db *sql.DB, account int64, amount int64) error {
	owner := lock(ctx, rdb, "lock:balance")
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:balance", owner)
	fence, err := rdb.Incr(ctx, "fence:balance").Result()
	if err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, upsertBalance, account, amount, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errStale
	}
	return nil
}

func upsertFencedIgnored(ctx context.Context, rdb *redis.Client, db *sql.DB, account int64, amount int64) error {
	owner := lock(ctx, rdb, "lock:balance")
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:balance", owner)
	fence, err := rdb.Incr(ctx, "fence:balance").Result()
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, upsertBalance, account, amount, fence) // want `result of the conditional write is ignored`
	return err
}

// An upsert whose DO UPDATE has no WHERE overwrites like an UPDATE.
func upsertUnfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, account int64, amount int64) error {
	owner := lock(ctx, rdb, "lock:balance")
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:balance", owner)
	_, err := db.ExecContext(ctx, overwriteBalance, account, amount) // want `unfenced write under a TTL lock`
	return err
}

// An insert that does nothing when the row is there: the row is there either
// way, so its outcome need not be looked at.
func insertDoNothing(ctx context.Context, rdb *redis.Client, db *sql.DB, order int64) error {
	owner := lock(ctx, rdb, "lock:receipt")
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:receipt", owner)
	_, err := db.ExecContext(ctx, `INSERT INTO receipts (order_id) VALUES ($1) ON CONFLICT DO NOTHING`, order)
	return err
}

// A WHERE lockvet cannot read at all may test the row's state where it
// cannot see: not judged.
func unreadableWhere(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	owner := lock(ctx, rdb, "lock:order")
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", owner)
	_, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE status = 'PENDING' AND id = $1 OR status = 'RETRY' AND id = $1`, id)
	return err
}

// A WHERE read in part: the part it reads is conditional, and the ignored
// outcome is reported.
func partlyReadConditional(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	owner := lock(ctx, rdb, "lock:order")
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", owner)
	_, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING' AND (paid_at IS NULL OR retry)`, id) // want `result of the conditional write is ignored`
	return err
}

// A subquery that only finds the row fences nothing.
func subqueryKey(ctx context.Context, rdb *redis.Client, db *sql.DB, order int64) error {
	owner := lock(ctx, rdb, "lock:order")
	if owner == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", owner)
	_, err := db.ExecContext(ctx, `UPDATE accounts SET points = points + 10 WHERE id = (SELECT customer_id FROM orders WHERE id = $1)`, order) // want `unfenced write under a TTL lock`
	return err
}
