// Package facts checks the wrapper facts lockmodel exports. // want package:`lockapi`
package facts

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// Locker takes locks by name.
type Locker struct{ rdb *redis.Client }

// TryLock stores a constant: the problem shows at each caller that pairs it
// with Unlock, since only they make it a lock.
func (l *Locker) TryLock(ctx context.Context, name string) bool { // want TryLock:`acquire \(c:"lock:" \+ \{p2\}\) via SETNX const`
	return l.rdb.SetNX(ctx, "lock:"+name, 1, 10*time.Second).Val()
}

// Unlock deletes without an owner check.
func (l *Locker) Unlock(ctx context.Context, name string) { // want Unlock:`release \(c:"lock:" \+ \{p2\}\) via DEL`
	l.rdb.Del(ctx, "lock:"+name)
}

// ErrBusy means another holder has the lock.
var ErrBusy = errors.New("busy")

// Mutex is a lock object: its key and value live in fields, and its methods
// pair with each other, so its problems are reported here, once.
type Mutex struct {
	rdb        *redis.Client
	key, value string
}

// NewMutex returns a mutex for key with a unique value.
func NewMutex(rdb *redis.Client, key string) *Mutex { // want NewMutex:`ctor key=\{p1\} rdb=\{p0\}`
	return &Mutex{rdb: rdb, key: key, value: uuid.NewString()}
}

// Lock takes the mutex or returns ErrBusy.
func (m *Mutex) Lock(ctx context.Context) error { // want Lock:`acquire \{p0\}.key.\* via SETNX value=\{p0\}.value`
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
func (m *Mutex) Unlock(ctx context.Context) error { // want Unlock:`release \{p0\}.key.\* via DEL`
	return m.rdb.Del(ctx, m.key).Err()
}

// Extend refreshes the mutex without an owner check.
func (m *Mutex) Extend(ctx context.Context) { // want Extend:`refresh \{p0\}.key.\* via EXPIRE`
	m.rdb.Expire(ctx, m.key, time.Minute)
}

// Do forwards a raw command.
func (l *Locker) Do(ctx context.Context, args ...interface{}) *redis.Cmd { // want Do:`command args=\{p2\}`
	return l.rdb.Do(ctx, args...)
}

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// WithLock runs fn while it holds name: the function literal a caller passes
// runs under the lock.
func (l *Locker) WithLock(ctx context.Context, name string, fn func() error) error { // want WithLock:`runs \[3\] under a lock`
	token := uuid.NewString()
	ok, err := l.rdb.SetNX(ctx, "lock:"+name, token, time.Minute).Result()
	if err != nil || !ok {
		return ErrBusy
	}
	defer release.Run(ctx, l.rdb, []string{"lock:" + name}, token)
	return fn()
}

// Keys are expressions, not text: a # or a {p0} in a constant is text.
func (l *Locker) TryLockTagged(ctx context.Context, name string) bool { // want TryLockTagged:`acquire \(c:"lock#\{p0\}:" \+ \{p2\}\) via SETNX const`
	return l.rdb.SetNX(ctx, "lock#{p0}:"+name, 1, 10*time.Second).Val()
}

// A key built by a method of the receiver is a template of both.
func (l *Locker) key(name string) string { return "lock:" + name }

func (l *Locker) TryLockKeyed(ctx context.Context, name, owner string) bool { // want TryLockKeyed:`acquire key\(\{p0\}, \{p2\}\) via SETNX`
	return l.rdb.SetNX(ctx, l.key(name), owner, 10*time.Second).Val()
}

func (l *Locker) UnlockKeyed(ctx context.Context, name string) { // want UnlockKeyed:`release key\(\{p0\}, \{p2\}\) via DEL`
	l.rdb.Del(ctx, l.key(name))
}

// Forwarders send a command under its own name, every operand from their
// parameters: they decide nothing about a lock.
func (l *Locker) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) { // want SetNX:`acquire \{p2\} via SETNX forwards`
	return l.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (l *Locker) Del(ctx context.Context, keys ...string) error { // want Del:`release \{p2\} via DEL forwards each`
	return l.rdb.Del(ctx, keys...).Err()
}

// A forwarder by name that adds its own value is a lock helper.
func (l *Locker) Setnx(ctx context.Context, key string) bool { // want Setnx:`acquire \{p2\} via SETNX const`
	return l.rdb.SetNX(ctx, key, "1", time.Minute).Val()
}

// A key joined from a slice literal is a template of its elements.
func (l *Locker) LockJoined(ctx context.Context, name string) bool { // want LockJoined:`acquire Join\(\[\]\(c:"lock", \{p2\}\), c:":"\) via SETNX`
	return l.rdb.SetNX(ctx, strings.Join([]string{"lock", name}, ":"), uuid.NewString(), time.Minute).Val()
}

// ValueLease is a lease held by value: its methods' receiver is a copy, and
// l.key is the same key a pointer receiver loads.
type ValueLease struct {
	rdb   *redis.Client
	key   string
	token string
}

// Acquire returns the lease as a struct value behind an interface.
func Acquire(ctx context.Context, rdb *redis.Client, key string) (interface{ Release(context.Context) error }, error) { // want Acquire:`acquire \{p2\} via SETNX lease=r0.key`
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return nil, ErrBusy
	}
	return ValueLease{rdb: rdb, key: key, token: token}, nil
}

// Release runs the owner-checked script with the lease's own fields.
func (l ValueLease) Release(ctx context.Context) error { // want Release:`release \{p0\}.key.\* via script value=\{p0\}.token checked`
	return release.Run(ctx, l.rdb, []string{l.key}, l.token).Err()
}
