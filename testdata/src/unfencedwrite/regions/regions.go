// Package regions holds writes outside any lock's critical region: before the
// acquisition, after a release that is not deferred, and under a SET NX that
// nothing releases (a dedup marker, not a lock).
package regions

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

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func beforeAndAfter(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	if _, err := db.ExecContext(ctx, `UPDATE jobs SET queued_at = now() WHERE id = $1`, id); err != nil {
		return err
	}
	key, token := fmt.Sprintf("lock:job:%d", id), uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	_, err = db.ExecContext(ctx, `UPDATE jobs SET state = 'RUNNING' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	unlock.Run(ctx, rdb, []string{key}, token)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE jobs SET finished_at = now() WHERE id = $1`, id)
	return err
}

// A dedup marker: the key expires on its own and nobody deletes it, so the
// SET NX is not a lock and the INSERT is not under one.
func dedup(ctx context.Context, rdb *redis.Client, db *sql.DB, eventID string) error {
	fresh, err := rdb.SetNX(ctx, "seen:"+eventID, 1, 24*time.Hour).Result()
	if err != nil {
		return err
	}
	if !fresh {
		return nil // handled already
	}
	_, err = db.ExecContext(ctx, `INSERT INTO events (id, received_at) VALUES ($1, now())`, eventID)
	return err
}

// A marker cleared only when the work fails, so that a retry can run: still
// not a lock.
func clearedOnError(ctx context.Context, rdb *redis.Client, db *sql.DB, eventID string) error {
	fresh, err := rdb.SetNX(ctx, "seen:"+eventID, 1, 24*time.Hour).Result()
	if err != nil || !fresh {
		return err
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO events (id, received_at) VALUES ($1, now())`, eventID); err != nil {
		rdb.Del(ctx, "seen:"+eventID)
		return err
	}
	return nil
}

// The key released is not the key taken: no lock pairs them.
func otherKey(ctx context.Context, rdb *redis.Client, db *sql.DB, a, b int64) error {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, fmt.Sprintf("lock:a:%d", a), token, 10*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{fmt.Sprintf("lock:b:%d", b)}, token)
	_, err = db.ExecContext(ctx, `UPDATE pairs SET linked = true WHERE a = $1`, a)
	return err
}

// A state test lockvet reads only in part (an OR) still guards the write.
func partlyRead(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:partly", token, time.Minute).Result(); err != nil || !ok {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:partly"}, token)
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND (status = 'PENDING' OR status = 'RETRY')`, id)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// Partly read, but the part lockvet could not read tests no column the write
// sets: still unfenced.
func partlyReadUnfenced(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:partly", token, time.Minute).Result(); err != nil || !ok {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:partly"}, token)
	_, err := db.ExecContext(ctx, `UPDATE orders SET paid = true WHERE id = $1 AND (region = 'EU' OR region = 'US')`, id) // want `unfenced write under a TTL lock`
	return err
}
