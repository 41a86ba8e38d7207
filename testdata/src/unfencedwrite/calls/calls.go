// Package calls holds writes made under a lock by other code than the
// function that holds it: a closure, a callback, a goroutine.
package calls

import (
	"context"
	"database/sql"
	"errors"
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

// A closure made before the lock is taken and called under it.
func closureMadeBefore(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	markDone := func() error {
		_, err := db.ExecContext(ctx, `UPDATE tasks SET done = true WHERE id = $1`, id) // want `unfenced write under a TTL lock`
		return err
	}
	owner := lock(ctx, rdb, "lock:task")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:task", owner)
	return markDone()
}

// A closure made under the lock.
func closureMadeUnder(ctx context.Context, rdb *redis.Client, db *sql.DB, ids []int64) error {
	owner := lock(ctx, rdb, "lock:task")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:task", owner)
	markDone := func(id int64) error {
		_, err := db.ExecContext(ctx, `UPDATE tasks SET done = true WHERE id = $1`, id) // want `unfenced write under a TTL lock`
		return err
	}
	for _, id := range ids {
		if err := markDone(id); err != nil {
			return err
		}
	}
	return nil
}

func closureConditional(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	markDone := func() error {
		res, err := db.ExecContext(ctx, `UPDATE tasks SET done = true WHERE id = $1 AND done = false`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errBusy
		}
		return nil
	}
	owner := lock(ctx, rdb, "lock:task")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:task", owner)
	return markDone()
}

// A closure called only before the lock is taken and after it is released.
func closureOutside(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	touch := func() {
		db.ExecContext(ctx, `UPDATE tasks SET touched_at = now() WHERE id = $1`, id)
	}
	touch()
	owner := lock(ctx, rdb, "lock:task")
	if owner == "" {
		return errBusy
	}
	var n int
	db.QueryRowContext(ctx, `SELECT count(*) FROM tasks WHERE id = $1`, id).Scan(&n)
	unlock(ctx, rdb, "lock:task", owner)
	touch()
	return nil
}

func inTx(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// A callback that captures nothing, passed to a helper under the lock.
func callback(ctx context.Context, rdb *redis.Client, db *sql.DB) error {
	owner := lock(ctx, rdb, "lock:counters")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:counters", owner)
	return inTx(ctx, db, func(tx *sql.Tx) error {
		_, err := tx.Exec(`UPDATE counters SET runs = runs + 1 WHERE name = 'nightly'`) // want `unfenced write under a TTL lock`
		return err
	})
}

// A goroutine started under the lock writes while it is held, or later.
func goroutine(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	owner := lock(ctx, rdb, "lock:export")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:export", owner)
	done := make(chan error, 1)
	go func() {
		_, err := db.ExecContext(ctx, `UPDATE exports SET started_at = now() WHERE id = $1`, id) // want `unfenced write under a TTL lock`
		done <- err
	}()
	return <-done
}

type auditor struct{ db *sql.DB }

func (a *auditor) record(ctx context.Context, id int64) {
	a.db.ExecContext(ctx, `INSERT INTO audit_log (export_id) VALUES ($1)`, id)
}

func goroutineMethod(ctx context.Context, rdb *redis.Client, a *auditor, id int64) error {
	owner := lock(ctx, rdb, "lock:export")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:export", owner)
	go a.record(ctx, id) // want `unfenced write \(in record\) under a TTL lock`
	return nil
}

// The release sits in a closure: calling it ends the region.
func closureRelease(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	owner := lock(ctx, rdb, "lock:task")
	if owner == "" {
		return errBusy
	}
	release := func() { unlock(ctx, rdb, "lock:task", owner) }
	if _, err := db.ExecContext(ctx, `UPDATE tasks SET state = 'RUNNING' WHERE id = $1`, id); err != nil { // want `unfenced write under a TTL lock`
		release()
		return err
	}
	release()
	_, err := db.ExecContext(ctx, `UPDATE tasks SET released_at = now() WHERE id = $1`, id)
	return err
}

// withLock runs fn under a lock it takes and releases itself.
func withLock(ctx context.Context, rdb *redis.Client, key string, fn func() error) error {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	return fn()
}

func callbackOfWithLock(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	return withLock(ctx, rdb, "lock:report", func() error {
		_, err := db.ExecContext(ctx, `UPDATE reports SET built_at = now() WHERE id = $1`, id) // want `unfenced write under a TTL lock`
		return err
	})
}

// The literal is passed to a function that does not lock: nothing is held.
func callbackWithoutLock(ctx context.Context, db *sql.DB, id int64) error {
	return inTx(ctx, db, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE reports SET built_at = now() WHERE id = $1`, id)
		return err
	})
}
