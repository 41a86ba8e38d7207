// Package texts holds writes whose SQL text is not a literal at the call: a
// fmt.Sprintf template, a concatenation, a package-level variable. (Text from
// a function or variable of another package: package usequeries.)
package texts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

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

// The table is a hole in the template; the statement's shape is still known.
func sprintfTable(ctx context.Context, rdb *redis.Client, db *sql.DB, table string, id int64) error {
	owner := lock(ctx, rdb, "lock:"+table)
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:"+table, owner)
	q := fmt.Sprintf("UPDATE %s SET archived = true WHERE id = $1", table)
	_, err := db.ExecContext(ctx, q, id) // want `unfenced write under a TTL lock`
	return err
}

func sprintfConditional(ctx context.Context, rdb *redis.Client, db *sql.DB, table string, id int64) error {
	owner := lock(ctx, rdb, "lock:"+table)
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:"+table, owner)
	res, err := db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET archived = true WHERE id = $1 AND archived = false", table), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errBusy
	}
	return nil
}

const ordersTable = "orders"

func concatenated(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	owner := lock(ctx, rdb, "lock:orders")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:orders", owner)
	q := "UPDATE " + ordersTable + " SET priority = 1"
	q += " WHERE id = $1"
	_, err := db.ExecContext(ctx, q, id) // want `unfenced write under a TTL lock`
	return err
}

var closeBatch = `UPDATE batches SET closed_at = now() WHERE id = $1`

func packageVar(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	owner := lock(ctx, rdb, "lock:batches")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:batches", owner)
	_, err := db.ExecContext(ctx, closeBatch, id) // want `unfenced write under a TTL lock`
	return err
}

func renewSQL() string {
	return "UPDATE subscriptions SET renewed_at = now() WHERE id = $1"
}

func packageFunc(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	owner := lock(ctx, rdb, "lock:subscription")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:subscription", owner)
	_, err := db.ExecContext(ctx, renewSQL(), id) // want `unfenced write under a TTL lock`
	return err
}

// The condition is a hole in the template: the WHERE cannot be read, and the
// write is not judged.
func sprintfCondition(ctx context.Context, rdb *redis.Client, db *sql.DB, cond string, id int64) error {
	owner := lock(ctx, rdb, "lock:orders")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:orders", owner)
	_, err := db.ExecContext(ctx, fmt.Sprintf("UPDATE orders SET status = 'PAID' WHERE %s", cond), id)
	return err
}

// An ORM's template: the condition may be in a hole, so the write is not
// judged unfenced.
func ormTemplate(ctx context.Context, rdb *redis.Client, db *sql.DB, table, set, cond string) error {
	owner := lock(ctx, rdb, "lock:orm")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:orm", owner)
	_, err := db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET %s %s", table, set, cond))
	return err
}
