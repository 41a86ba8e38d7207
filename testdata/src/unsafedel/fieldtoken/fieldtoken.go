// Package fieldtoken releases with a token kept in a field its constructor
// sets to one constant: every holder's token matches.
package fieldtoken

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

type Lock struct {
	rdb        *redis.Client
	key, token string
}

func NewLock(rdb *redis.Client, key string) *Lock {
	return &Lock{rdb: rdb, key: key, token: "1"}
}

func (l *Lock) Lock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.token, 10*time.Second).Result()
}

func (l *Lock) Unlock(ctx context.Context) error {
	return release.Run(ctx, l.rdb, []string{l.key}, l.token).Err() // want `compare-and-delete with a constant token: every holder matches`
}

// Mutex keeps a token field nothing sets: it is "" for every holder.
type Mutex struct {
	rdb        *redis.Client
	key, token string
}

func NewMutex(rdb *redis.Client, key string) *Mutex { return &Mutex{rdb: rdb, key: key} }

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.token, 10*time.Second).Result()
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return release.Run(ctx, m.rdb, []string{m.key}, m.token).Err() // want `compare-and-delete with a constant token`
}

// Scanned has its token set through its address: it may hold anything.
type Scanned struct {
	rdb        *redis.Client
	key, token string
}

func (s *Scanned) Load(read func(*string)) { read(&s.token) }

func (s *Scanned) Lock(ctx context.Context) (bool, error) {
	return s.rdb.SetNX(ctx, s.key, s.token, 10*time.Second).Result()
}

func (s *Scanned) Unlock(ctx context.Context) error {
	return release.Run(ctx, s.rdb, []string{s.key}, s.token).Err()
}
