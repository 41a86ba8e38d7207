package lock

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const releaseScript = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`

// RedisLocker is the implementation main wires in: a value receiver, and a
// lease returned as a struct value behind the Lock interface.
type RedisLocker struct {
	client redis.Cmdable
}

func NewRedisLocker(client redis.Cmdable) RedisLocker { return RedisLocker{client: client} }

func (l RedisLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (Lock, error) {
	token := uuid.NewString()
	ok, err := l.client.SetNX(ctx, key, token, ttl).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrNotAcquired
	}
	return redisLock{client: l.client, key: key, token: token}, nil
}

type redisLock struct {
	client redis.Cmdable
	key    string
	token  string
}

func (l redisLock) Key() string { return l.key }

func (l redisLock) Release(ctx context.Context) error {
	return l.client.Eval(ctx, releaseScript, []string{l.key}, l.token).Err()
}
