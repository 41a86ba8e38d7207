// Package redislock is a lock object whose value its caller chooses: the
// constructor keeps it in a field the lock's scripts read. Whether it is a
// constant is decided where the lock is made.
package redislock

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	acquire = redis.NewScript(`
		if redis.call("GET", KEYS[1]) == false then
			redis.call("SET", KEYS[1], ARGV[1], "EX", ARGV[2])
			return 1
		end
		return 0`)
	release = redis.NewScript(`
		if redis.call("GET", KEYS[1]) == ARGV[1] then
			return redis.call("DEL", KEYS[1])
		end
		return 0`)
)

type Lock struct {
	client *redis.Client
	key    string
	value  string
	ttl    time.Duration
}

func New(client *redis.Client, key, value string, ttl time.Duration) *Lock {
	return &Lock{client: client, key: key, value: value, ttl: ttl}
}

func (l *Lock) TryLock(ctx context.Context) bool {
	n, err := acquire.Run(ctx, l.client, []string{l.key}, l.value, strconv.Itoa(int(l.ttl.Seconds()))).Int()
	return err == nil && n == 1
}

func (l *Lock) Unlock(ctx context.Context) error {
	return release.Run(ctx, l.client, []string{l.key}, l.value).Err()
}
