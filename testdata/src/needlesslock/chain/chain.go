// Package chain reaches an HTTP call from a lock's region through a chain of
// calls declared callers first, and through mutual recursion: the lock earns
// its keep, whatever order the summaries are computed in. The same chain that
// ends in computation leaves the lock guarding database work only.
package chain

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func Complete(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:order", token, 10*time.Second).Result(); err != nil || !ok {
		return err
	}
	defer unlock.Run(ctx, rdb, []string{"lock:order"}, token)
	if _, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id); err != nil {
		return err
	}
	return step1(ctx, id)
}

func step1(ctx context.Context, id int64) error { return step2(ctx, id) }
func step2(ctx context.Context, id int64) error { return step3(ctx, id) }
func step3(ctx context.Context, id int64) error { return step4(ctx, id) }
func step4(ctx context.Context, id int64) error { return step5(ctx, id) }
func step5(ctx context.Context, id int64) error { return step6(ctx, id) }
func step6(ctx context.Context, id int64) error { return ping(ctx, int(id)) }

func ping(ctx context.Context, n int) error {
	if n == 0 {
		return nil
	}
	return pong(ctx, n-1)
}

func pong(ctx context.Context, n int) error {
	if n%7 == 0 {
		if _, err := http.Post("http://127.0.0.1:9/hook", "text/plain", nil); err != nil {
			return err
		}
	}
	return ping(ctx, n)
}

func CompleteQuietly(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:order", token, 10*time.Second).Result(); err != nil || !ok { // want `lock only guards database work`
		return err
	}
	defer unlock.Run(ctx, rdb, []string{"lock:order"}, token)
	if _, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id); err != nil {
		return err
	}
	return quiet1(id)
}

func quiet1(id int64) error { return quiet2(id) }
func quiet2(id int64) error { return quiet3(id) }
func quiet3(id int64) error {
	if id < 0 {
		return quiet1(-id)
	}
	return nil
}
