// Package testfatal is a lock object whose own tests stop on a failed
// acquisition with t.Fatalf: the test ends there, it does not run unlocked.
package testfatal

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Lock struct {
	rdb        *redis.Client
	key, owner string
}

func New(rdb *redis.Client, key string) *Lock { return &Lock{rdb: rdb, key: key} }

func (l *Lock) TryLock(ctx context.Context) (bool, error) {
	owner := uuid.NewString()
	ok, err := l.rdb.SetNX(ctx, l.key, owner, 30*time.Second).Result()
	if err != nil || !ok {
		return false, err
	}
	l.owner = owner
	return true, nil
}

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func (l *Lock) Unlock(ctx context.Context) error {
	return unlock.Run(ctx, l.rdb, []string{l.key}, l.owner).Err()
}
