// Package multikey locks a list of keys at once, each in a loop, and
// releases them with one DEL of the list.
package multikey

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type cache struct {
	client *redis.Client
}

func (c *cache) Lock(ctx context.Context, keys []string, ttl time.Duration) error {
	for {
		locked := true
		_, err := c.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
			for _, key := range keys {
				ok, err := c.client.SetNX(ctx, key, uuid.NewString(), ttl).Result()
				if err != nil {
					locked = false
					return err
				}
				if !ok {
					locked = false
					return errors.New("held")
				}
			}
			return nil
		})
		if err == nil && locked {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (c *cache) UnLock(ctx context.Context, keys []string) error {
	return c.client.Del(ctx, keys...).Err() // want `lock released with plain DEL`
}

func (c *cache) Reserve(ctx context.Context, skus []string) error {
	if err := c.Lock(ctx, skus, 3*time.Second); err != nil {
		return err
	}
	defer c.UnLock(ctx, skus)
	return nil
}
