// Package locker is an in-house lock helper with unsafe releases.
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

// TryLock takes name with token.
func (l *Locker) TryLock(ctx context.Context, name, token string) bool {
	return l.rdb.SetNX(ctx, "lock:"+name, token, 10*time.Second).Val()
}

// Unlock deletes without an owner check. A cache helper looks the same, so the
// problem shows where a caller pairs it with TryLock.
func (l *Locker) Unlock(ctx context.Context, name string) {
	l.rdb.Del(ctx, "lock:"+name)
}

// UnlockIfOwner checks the owner in Go: two round trips. The comparison shows
// it releases a lock, so it is reported here, not at its callers.
func (l *Locker) UnlockIfOwner(ctx context.Context, name, token string) {
	if l.rdb.Get(ctx, "lock:"+name).Val() != token {
		return
	}
	l.rdb.Del(ctx, "lock:"+name) // want `lock released by GET, compare, then DEL: it can change hands in between`
}

// Renew extends the lease if the caller still owns it, in two round trips.
func (l *Locker) Renew(ctx context.Context, name, token string) {
	val, err := l.rdb.Get(ctx, "lock:"+name).Result()
	if err == nil && val == token {
		l.rdb.PExpire(ctx, "lock:"+name, 10*time.Second) // want `lock refreshed by GET, compare, then PEXPIRE: it can change hands in between; compare and refresh in one Lua script`
	}
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

// Lock takes the mutex or returns ErrBusy.
func (m *Mutex) Lock(ctx context.Context) error {
	ok, err := m.rdb.SetNX(ctx, m.key, m.value, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	return nil
}

// Unlock releases the mutex, whoever holds it.
func (m *Mutex) Unlock(ctx context.Context) error {
	return m.rdb.Del(ctx, m.key).Err() // want `lock released with plain DEL`
}

// Extend refreshes the mutex without an owner check.
func (m *Mutex) Extend(ctx context.Context) {
	m.rdb.Expire(ctx, m.key, time.Minute) // want `lock refreshed with EXPIRE without an owner check`
}

// ReleaseMutex is a package-level helper that takes the lock object as a
// parameter: it pairs with the type's own Lock as a method would, and its
// problem is reported here too.
func ReleaseMutex(ctx context.Context, m *Mutex) {
	m.rdb.Del(ctx, m.key) // want `lock released with plain DEL`
}

// releaseFirst takes the lock object first, as a method's receiver comes.
func releaseFirst(m *Mutex) {
	m.rdb.Unlink(context.Background(), m.key) // want `lock released with plain UNLINK`
}

// Cache is an in-house Redis client that forwards its keys.
type Cache struct{ rdb *redis.Client }

// SetNX stores value at key for ttl if it is not set.
func (c *Cache) SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, value, ttl).Result()
}

// Del deletes keys: a plain DEL of each key its caller names.
func (c *Cache) Del(ctx context.Context, keys ...string) error {
	return c.rdb.Del(ctx, keys...).Err()
}

// Forget hands its keys on to Del.
func (c *Cache) Forget(ctx context.Context, keys ...string) error {
	return c.Del(ctx, keys...)
}

// Leases hands out a lease that carries its key and token.
type Leases struct{ rdb *redis.Client }

// Lease is one held lock.
type Lease struct {
	rdb        *redis.Client
	key, token string
}

// Acquire takes key and returns its lease.
func (ls *Leases) Acquire(ctx context.Context, key string) (*Lease, error) {
	token := uuid.NewString()
	ok, err := ls.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrBusy
	}
	return &Lease{rdb: ls.rdb, key: key, token: token}, nil
}

// Release deletes the lease's key, whoever holds it now.
func (le *Lease) Release(ctx context.Context) error {
	return le.rdb.Del(ctx, le.key).Err()
}

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// ReleaseIfOwner deletes the key only while the lease's token holds it.
func (le *Lease) ReleaseIfOwner(ctx context.Context) error {
	return unlockScript.Run(ctx, le.rdb, []string{le.key}, le.token).Err()
}

// Lock takes key and returns the func that releases it, with a plain DEL:
// reported here, where the helper decides it, not at each caller.
func Lock(ctx context.Context, rdb *redis.Client, key string) (func(), error) {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return nil, ErrBusy
	}
	return func() { rdb.Del(ctx, key) }, nil // want `lock released with plain DEL`
}

// LockChecked returns an owner-checked release.
func LockChecked(ctx context.Context, rdb *redis.Client, key string) (func(), error) {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return nil, ErrBusy
	}
	return func() { unlockScript.Run(ctx, rdb, []string{key}, token) }, nil
}

// breaker runs a command as older go-zero clients do, inside a closure it
// is handed.
type breaker struct{}

func (breaker) Do(fn func() error) error { return fn() }

// Client wraps go-redis behind a breaker: each parameter reaches the command
// through the closure that captures it.
type Client struct {
	rdb *redis.Client
	brk breaker
}

func (c *Client) SetnxEx(ctx context.Context, key, value string, seconds int) (ok bool, err error) {
	err = c.brk.Do(func() error {
		ok, err = c.rdb.SetNX(ctx, key, value, time.Duration(seconds)*time.Second).Result()
		return err
	})
	return
}

func (c *Client) Del(ctx context.Context, key string) error {
	return c.brk.Do(func() error {
		return c.rdb.Del(ctx, key).Err()
	})
}
