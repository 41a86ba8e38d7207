package regions

import (
	"context"
	"database/sql"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var renewScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

// A cron runner that never deletes its key: a goroutine renews the lease
// while fn runs, and the key expires after. The lock is held from the
// acquisition to the end of the function.
func runWithLock(ctx context.Context, rdb *redis.Client, key string, fn func(context.Context)) bool {
	value := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, value, 10*time.Second).Result()
	if err != nil || !ok {
		return false
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go renewLoop(ctx, rdb, key, value)
	fn(ctx)
	return true
}

func renewLoop(ctx context.Context, rdb *redis.Client, key, value string) {
	t := time.NewTicker(3 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := renewScript.Run(ctx, rdb, []string{key}, value, 10000).Int(); err != nil || n == 0 {
				return
			}
		}
	}
}

func purge(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) {
	runWithLock(ctx, rdb, "cron:purge", func(ctx context.Context) {
		db.ExecContext(ctx, `UPDATE sessions SET purged = true WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	})
}

// The same, the renewal in a goroutine of the function's own.
func settle(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) {
	value := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "cron:settle", value, 10*time.Second).Result()
	if err != nil || !ok {
		return
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(3 * time.Second):
				renewScript.Run(ctx, rdb, []string{"cron:settle"}, value, 10000)
			}
		}
	}()
	db.ExecContext(ctx, `UPDATE orders SET settled = true WHERE id = $1`, id) // want `unfenced write under a TTL lock`
}

// A key extended in the same flow, never by a goroutine, is a window kept
// open, not a lock held while work runs.
func window(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) {
	ok, err := rdb.SetNX(ctx, "window:"+uuid.NewString(), 1, time.Minute).Result()
	if err != nil {
		return
	}
	if !ok {
		rdb.Expire(ctx, "window", time.Minute)
	}
	db.ExecContext(ctx, `UPDATE orders SET seen = true WHERE id = $1`, id)
}

type purger struct {
	rdb *redis.Client
	db  *sql.DB
}

// A method value given to the runner runs under its lock, as a literal does.
func (p *purger) start(ctx context.Context) {
	runWithLock(ctx, p.rdb, "cron:sessions", p.purgeSessions)
}

func (p *purger) purgeSessions(ctx context.Context) {
	p.db.ExecContext(ctx, `UPDATE sessions SET purged = true WHERE id = $1`, 1) // want `unfenced write under a TTL lock`
}

// So does a function, and a job handed to a wrapper that hands it on to the
// runner in a literal of its own.
func scheduled(ctx context.Context, rdb *redis.Client, key string, job func(context.Context)) func() {
	return func() {
		runWithLock(ctx, rdb, key, func(ctx context.Context) {
			job(ctx)
		})
	}
}

func register(ctx context.Context, rdb *redis.Client) []func() {
	return []func(){scheduled(ctx, rdb, "cron:archive", archive)}
}

var archiveDB *sql.DB

func archive(ctx context.Context) {
	archiveDB.ExecContext(ctx, `UPDATE orders SET archived = true WHERE id = $1`, 1) // want `unfenced write under a TTL lock`
}

// A function that is given the job but runs it without the lock takes no
// part.
func unlocked(ctx context.Context, job func(context.Context)) { job(ctx) }

func runUnlocked(ctx context.Context) { unlocked(ctx, unlockedJob) }

func unlockedJob(ctx context.Context) {
	archiveDB.ExecContext(ctx, `UPDATE orders SET archived = true WHERE id = $1`, 1)
}
