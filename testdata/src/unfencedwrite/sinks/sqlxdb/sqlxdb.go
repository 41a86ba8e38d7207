// Package sqlxdb holds sqlx writes under a go-redis lock, one reported and one
// silent case per call.
package sqlxdb

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
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

type transition struct {
	ID   int64  `db:"id"`
	From string `db:"from"`
	To   string `db:"to"`
}

// Exec on an *sqlx.DB is database/sql's, promoted.
func execUnfenced(ctx context.Context, rdb *redis.Client, db *sqlx.DB, id int64) error {
	token := lock(ctx, rdb, "lock:user")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:user", token)
	_, err := db.Exec(`UPDATE users SET points = points + 100 WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func execConditional(ctx context.Context, rdb *redis.Client, db *sqlx.DB, id int64) error {
	token := lock(ctx, rdb, "lock:user")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:user", token)
	res, err := db.Exec(`UPDATE users SET bonus_granted = true, points = points + 100 WHERE id = $1 AND bonus_granted = false`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errStale
	}
	return nil
}

func mustExecUnfenced(ctx context.Context, rdb *redis.Client, db *sqlx.DB, id int64) {
	token := lock(ctx, rdb, "lock:user")
	if token == "" {
		return
	}
	defer unlock(ctx, rdb, "lock:user", token)
	db.MustExec(`INSERT INTO grants (user_id, points) VALUES ($1, 100)`, id) // want `unfenced write under a TTL lock`
}

func mustExecConditional(ctx context.Context, rdb *redis.Client, db *sqlx.DB, id int64) error {
	token := lock(ctx, rdb, "lock:user")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:user", token)
	res := db.MustExec(`UPDATE users SET tier = 'gold' WHERE id = $1 AND tier = 'silver'`, id)
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

func namedExecUnfenced(ctx context.Context, rdb *redis.Client, db *sqlx.DB, t transition) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	_, err := db.NamedExec(`UPDATE orders SET status = :to WHERE id = :id`, t) // want `unfenced write under a TTL lock`
	return err
}

func namedExecConditional(ctx context.Context, rdb *redis.Client, db *sqlx.DB, t transition) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	res, err := db.NamedExec(`UPDATE orders SET status = :to WHERE id = :id AND status = :from`, t)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errStale
	}
	return nil
}

// Get scans what UPDATE … RETURNING sends back into its destination.
func getUnfenced(ctx context.Context, rdb *redis.Client, db *sqlx.DB, id int64) (int64, error) {
	token := lock(ctx, rdb, "lock:item")
	if token == "" {
		return 0, errStale
	}
	defer unlock(ctx, rdb, "lock:item", token)
	var stock int64
	err := db.Get(&stock, `UPDATE items SET stock = $2 WHERE id = $1 RETURNING stock`, id, 100) // want `unfenced write under a TTL lock`
	return stock, err
}

func getConditional(ctx context.Context, rdb *redis.Client, db *sqlx.DB, id int64) (int64, error) {
	token := lock(ctx, rdb, "lock:item")
	if token == "" {
		return 0, errStale
	}
	defer unlock(ctx, rdb, "lock:item", token)
	var stock int64
	err := db.GetContext(ctx, &stock, `UPDATE items SET stock = stock - 1 WHERE id = $1 AND stock > 0 RETURNING stock`, id)
	return stock, err
}

func preparex(ctx context.Context, rdb *redis.Client, db *sqlx.DB, id int64) error {
	token := lock(ctx, rdb, "lock:user")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:user", token)
	stmt, err := db.Preparex(`UPDATE users SET verified = true WHERE id = $1`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	stmt.MustExec(id) // want `unfenced write under a TTL lock`
	return nil
}

func namedExecMap(ctx context.Context, rdb *redis.Client, db *sqlx.DB, id int64) error {
	token := lock(ctx, rdb, "lock:user")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:user", token)
	_, err := db.NamedExecContext(ctx, `UPDATE users SET tier = :tier WHERE id = :id`, map[string]any{"tier": "gold", "id": id}) // want `unfenced write under a TTL lock`
	return err
}

func txMustExec(ctx context.Context, rdb *redis.Client, db *sqlx.DB, id int64) error {
	token := lock(ctx, rdb, "lock:user")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:user", token)
	tx := db.MustBeginTx(ctx, nil)
	defer tx.Rollback()
	tx.MustExecContext(ctx, `UPDATE users SET tier = 'gold' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	if err := tx.Commit(); err != nil {
		return err
	}
	res := db.MustExecContext(ctx, `UPDATE users SET tier = 'platinum' WHERE id = $1 AND tier = 'gold'`, id)
	if n, _ := res.RowsAffected(); n != 1 {
		return errStale
	}
	return nil
}
