// Package getter reads the lock back through an in-house client whose Get
// returns "" on a miss or an error: comparing what it returns, then
// deleting, is still two round trips.
package getter

import (
	"context"
	"errors"
	"log"

	"github.com/redis/go-redis/v9"
)

type Cache struct{ rdb *redis.Client }

func (c *Cache) Get(ctx context.Context, key string) (string, error) {
	val, err := c.rdb.Get(ctx, key).Result()
	if err == redis.Nil {
		return "", nil
	}
	if err != nil {
		log.Printf("redis get %s: %v", key, err)
		return "", err
	}
	return val, nil
}

func (c *Cache) Del(ctx context.Context, keys ...string) error {
	return c.rdb.Del(ctx, keys...).Err()
}

func (c *Cache) SetNX(ctx context.Context, key string, value any) (bool, error) {
	return c.rdb.SetNX(ctx, key, value, 0).Result()
}

type Lock struct{ cache *Cache }

func (l *Lock) Unlock(ctx context.Context, key, token string) error {
	current, err := l.cache.Get(ctx, "lock:"+key)
	if err != nil {
		return err
	}
	if current == "" {
		return nil
	}
	if current != token {
		return errors.New("not the owner")
	}
	return l.cache.Del(ctx, "lock:"+key) // want `lock released by GET, compare, then DEL`
}

func (l *Lock) TryLock(ctx context.Context, key, token string) (bool, error) {
	return l.cache.SetNX(ctx, "lock:"+key, token)
}

func work(ctx context.Context, l *Lock, id, token string) error {
	ok, err := l.TryLock(ctx, id, token)
	if err != nil || !ok {
		return err
	}
	defer l.Unlock(ctx, id, token)
	return nil
}
