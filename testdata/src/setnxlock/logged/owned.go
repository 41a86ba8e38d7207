package logged

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"testcases/setnxlock/logged/applog"
)

type ownedLock struct {
	rdb        *redis.Client
	key, token string
}

// acquireOwned returns a lease that releases itself, or an error when the
// lock was not taken.
func acquireOwned(ctx context.Context, rdb *redis.Client, key string) (*ownedLock, error) {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errLocked
	}
	return &ownedLock{rdb: rdb, key: key, token: token}, nil
}

func (o *ownedLock) Release(ctx context.Context) {
	_ = unlockScript.Run(ctx, o.rdb, []string{o.key}, o.token).Err()
}

// The failure is logged through the service's own facade, and the lease is
// released only when there is one: the work runs either way.
func InitEnvironment(ctx context.Context, rdb *redis.Client, id string) {
	lock, err := acquireOwned(ctx, rdb, "env_init_lock:"+id) // want `lock failure does not stop the work`
	if err != nil {
		applog.Warn("failed to acquire init lock; continuing", "error", err)
	}
	if lock != nil {
		defer lock.Release(ctx)
	}
	work()
}

// Silent: the lease's absence returns before the work.
func InitOnce(ctx context.Context, rdb *redis.Client, id string) {
	lock, err := acquireOwned(ctx, rdb, "env_once_lock:"+id)
	if err != nil {
		applog.Warn("failed to acquire init lock", "error", err)
	}
	if lock == nil {
		return
	}
	defer lock.Release(ctx)
	work()
}
