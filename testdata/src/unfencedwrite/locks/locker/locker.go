// Package locker is an in-house lock helper. The SET NX and the owner-checked
// DEL sit here; the critical sections are in package wrapped.
package locker

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// ErrBusy means another holder has the lock.
var ErrBusy = errors.New("busy")

// Locker takes locks by name.
type Locker struct{ rdb *redis.Client }

// New returns a Locker on rdb.
func New(rdb *redis.Client) *Locker { return &Locker{rdb: rdb} }

// TryLock takes name for ttl and returns the owner token, or false when
// someone else holds it.
func (l *Locker) TryLock(ctx context.Context, name string, ttl time.Duration) (string, bool) {
	token := uuid.NewString()
	ok, err := l.rdb.SetNX(ctx, "lock:"+name, token, ttl).Result()
	if err != nil || !ok {
		return "", false
	}
	return token, true
}

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Unlock releases name if token still holds it.
func (l *Locker) Unlock(ctx context.Context, name, token string) error {
	return unlock.Run(ctx, l.rdb, []string{"lock:" + name}, token).Err()
}

// Mutex is a lock object: its key and owner value live in its fields.
type Mutex struct {
	rdb        *redis.Client
	key, value string
}

// NewMutex returns a mutex on key with a unique owner value.
func NewMutex(rdb *redis.Client, key string) *Mutex {
	return &Mutex{rdb: rdb, key: key, value: uuid.NewString()}
}

// Lock takes the mutex for ten seconds, or returns ErrBusy.
func (m *Mutex) Lock(ctx context.Context) error {
	ok, err := m.rdb.SetNX(ctx, m.key, m.value, 10*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	return nil
}

// Unlock releases the mutex if it still holds it.
func (m *Mutex) Unlock(ctx context.Context) error {
	return unlock.Run(ctx, m.rdb, []string{m.key}, m.value).Err()
}

// WithLock runs fn while it holds name.
func (l *Locker) WithLock(ctx context.Context, name string, fn func(ctx context.Context) error) error {
	token := uuid.NewString()
	ok, err := l.rdb.SetNX(ctx, "lock:"+name, token, 10*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer unlock.Run(ctx, l.rdb, []string{"lock:" + name}, token)
	return fn(ctx)
}
