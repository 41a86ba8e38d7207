// Package failsopen tests the lock's flag but lets an error into the work:
// when Redis cannot be reached the error branch only logs, and the work
// runs without the lock ("fail open"). A log that rejoins where the flag is
// tested, and an error that returns, stay silent.
package failsopen

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

// Locker hands back the token with the flag and the error.
type Locker struct{ rdb *redis.Client }

func (l *Locker) Acquire(ctx context.Context, key string, ttl time.Duration) (string, bool, error) {
	token := uuid.NewString()
	ok, err := l.rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil {
		return "", false, err
	}
	return token, ok, nil
}

func (l *Locker) Release(ctx context.Context, key, token string) error {
	return release.Run(ctx, l.rdb, []string{key}, token).Err()
}

func work() {}

func invite(ctx context.Context, l *Locker, log *slog.Logger, key string) error {
	token, ok, err := l.Acquire(ctx, key, time.Minute) // want `lock error does not stop the work: when Redis fails, it runs without the lock`
	if err != nil {
		log.Warn("invite lock failed, bypassing", "err", err)
	} else if !ok {
		return nil
	} else {
		defer func() {
			if err := l.Release(context.Background(), key, token); err != nil {
				log.Warn("release failed", "err", err)
			}
		}()
	}
	work()
	return nil
}

func direct(ctx context.Context, rdb *redis.Client, log *slog.Logger, key string) {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result() // want `lock error does not stop the work`
	if err != nil {
		log.Warn("lock failed", "err", err)
	} else if !ok {
		return
	} else {
		defer release.Run(context.Background(), rdb, []string{key}, token)
	}
	work()
}

// The failed call answers false, and the flag's test stops it.
func logThenFlag(ctx context.Context, rdb *redis.Client, log *slog.Logger, key string) {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		log.Warn("lock failed", "err", err)
	}
	if !ok {
		return
	}
	defer release.Run(context.Background(), rdb, []string{key}, token)
	work()
}

func failsClosed(ctx context.Context, l *Locker, log *slog.Logger, key string) error {
	token, ok, err := l.Acquire(ctx, key, time.Minute)
	if err != nil {
		log.Warn("lock failed", "err", err)
		return err
	}
	if !ok {
		return nil
	}
	defer l.Release(context.Background(), key, token)
	work()
	return nil
}
