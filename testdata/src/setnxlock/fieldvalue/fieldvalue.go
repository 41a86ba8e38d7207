// Package fieldvalue keeps a lock's value in a field its constructor sets:
// a constant there is a constant at every acquisition.
package fieldvalue

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Lock stores the value its constructor chose.
type Lock struct {
	rdb        *redis.Client
	key, value string
}

// NewLock gives every lock the same value.
func NewLock(rdb *redis.Client, key string) *Lock {
	return &Lock{rdb: rdb, key: key, value: "locked"}
}

func (l *Lock) Lock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.value, 10*time.Second).Result() // want `lock value is a constant`
}

func (l *Lock) Unlock(ctx context.Context) error {
	return release.Run(ctx, l.rdb, []string{l.key}, l.value).Err()
}

// Mutex's constructor gives each mutex a value of its own.
type Mutex struct {
	rdb        *redis.Client
	key, value string
}

func NewMutex(rdb *redis.Client, key string) *Mutex {
	return &Mutex{rdb: rdb, key: key, value: uuid.NewString()}
}

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.value, 10*time.Second).Result()
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return release.Run(ctx, m.rdb, []string{m.key}, m.value).Err()
}

// Token is set to one constant, then to a fresh value: it varies.
type Token struct {
	rdb        *redis.Client
	key, value string
}

func NewToken(rdb *redis.Client, key string) *Token {
	t := &Token{rdb: rdb, key: key, value: "unset"}
	t.value = uuid.NewString()
	return t
}

func (t *Token) Lock(ctx context.Context) (bool, error) {
	return t.rdb.SetNX(ctx, t.key, t.value, 10*time.Second).Result()
}

func (t *Token) Unlock(ctx context.Context) error {
	return release.Run(ctx, t.rdb, []string{t.key}, t.value).Err()
}

// Unset's constructor forgets the value: every lock stores "".
type Unset struct {
	rdb        *redis.Client
	key, value string
}

func NewUnset(rdb *redis.Client, key string) *Unset { return &Unset{rdb: rdb, key: key} }

func (l *Unset) Lock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.value, 10*time.Second).Result() // want `lock value is a constant`
}

func (l *Unset) Unlock(ctx context.Context) error {
	return release.Run(ctx, l.rdb, []string{l.key}, l.value).Err()
}
