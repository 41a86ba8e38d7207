package regions

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var releaseScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func audit(ctx context.Context, db *sql.DB, what string) {
	db.ExecContext(ctx, `INSERT INTO audit (what) VALUES ($1)`, what)
}

// Only the code on the way to the release holds the lock: not the branch
// where the lock was not taken, nor what the deferred release does after it
// let go.
func seatLock(ctx context.Context, rdb *redis.Client, db *sql.DB, seat int64) error {
	value := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:seat", value, 10*time.Second).Result()
	if err != nil {
		go audit(context.Background(), db, "lock failed")
		return err
	}
	if !ok {
		go audit(context.Background(), db, "lock busy")
		return errors.New("busy")
	}
	go audit(context.Background(), db, "lock taken") // want `unfenced write \(in audit\) under a TTL lock`
	defer func() {
		if releaseScript.Run(ctx, rdb, []string{"lock:seat"}, value).Err() == nil {
			go audit(context.Background(), db, "lock released")
		}
	}()
	_, err = db.ExecContext(ctx, `UPDATE seats SET holder = 'me' WHERE id = $1`, seat) // want `unfenced write under a TTL lock`
	return err
}

// A lock taken only when a lock store is configured, and released in a
// deferral registered only when it was taken: the work after both branches
// join runs under it.
func optionalLock(ctx context.Context, rdb *redis.Client, db *sql.DB, user int64) error {
	var value string
	if rdb != nil {
		v := uuid.NewString()
		ok, err := rdb.SetNX(ctx, "lock:score", v, 10*time.Second).Result()
		if err != nil {
			return err
		}
		if !ok {
			return errors.New("busy")
		}
		value = v
	}
	if value != "" {
		defer func() {
			releaseScript.Run(ctx, rdb, []string{"lock:score"}, value)
		}()
	}
	_, err := db.ExecContext(ctx, `UPDATE scores SET total = total + 1 WHERE user_id = $1`, user) // want `unfenced write under a TTL lock`
	return err
}
