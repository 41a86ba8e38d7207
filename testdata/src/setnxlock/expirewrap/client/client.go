// Package client is an in-house Redis client: its SetNX sets the key and then
// its TTL in a second command.
package client

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Client wraps go-redis with the commands the services use.
type Client struct{ rdb *redis.Client }

// SetNX sets key if absent, then gives it expire seconds to live.
func (c *Client) SetNX(ctx context.Context, key, value string, expire int64) (bool, error) {
	ok, err := c.rdb.SetNX(ctx, key, value, 0).Result()
	if err != nil || !ok {
		return false, err
	}
	_ = c.rdb.Expire(ctx, key, time.Duration(expire)*time.Second).Err()
	return true, nil
}

// SetNXEx sets key if absent with its TTL in the same command.
func (c *Client) SetNXEx(ctx context.Context, key, value string, expire int64) (bool, error) {
	return c.rdb.SetNX(ctx, key, value, time.Duration(expire)*time.Second).Result()
}

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Release deletes key if it still holds value.
func (c *Client) Release(ctx context.Context, key, value string) error {
	return release.Run(ctx, c.rdb, []string{key}, value).Err()
}
