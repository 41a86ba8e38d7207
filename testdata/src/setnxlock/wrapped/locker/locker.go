// Package locker is an in-house lock helper: the SETNX sits here, the critical
// sections in other packages.
package locker

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// Locker takes locks by name.
type Locker struct{ rdb *redis.Client }

// TryLock stores a constant. Only a caller that pairs it with Unlock makes it a
// lock, so the problem shows at such callers.
func (l *Locker) TryLock(ctx context.Context, name string) bool {
	return l.rdb.SetNX(ctx, "lock:"+name, 1, 10*time.Second).Val()
}

// TryLockFor takes the TTL from its caller.
func (l *Locker) TryLockFor(ctx context.Context, name string, ttl time.Duration) bool {
	return l.rdb.SetNX(ctx, "lock:"+name, uuid.NewString(), ttl).Val()
}

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Unlock releases name if it holds token.
func (l *Locker) Unlock(ctx context.Context, name, token string) {
	unlock.Run(ctx, l.rdb, []string{"lock:" + name}, token)
}

// ErrBusy means another holder has the lock.
var ErrBusy = errors.New("busy")

// Mutex is a lock object whose methods pair with each other: its problems are
// reported here, once.
type Mutex struct {
	rdb        *redis.Client
	key, value string
}

// NewMutex returns a mutex for key with a unique value.
func NewMutex(rdb *redis.Client, key string) *Mutex {
	return &Mutex{rdb: rdb, key: key, value: uuid.NewString()}
}

// Lock takes the mutex, without a TTL.
func (m *Mutex) Lock(ctx context.Context) error {
	ok, err := m.rdb.SetNX(ctx, m.key, m.value, 0).Result() // want `lock has no TTL: a crashed holder keeps it forever`
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	return nil
}

// Unlock releases the mutex if it still holds the mutex's value.
func (m *Mutex) Unlock(ctx context.Context) error {
	return unlock.Run(ctx, m.rdb, []string{m.key}, m.value).Err()
}
