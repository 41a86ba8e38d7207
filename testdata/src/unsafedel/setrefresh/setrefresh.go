// Package setrefresh extends its locks by setting the key again with a new
// TTL. After a GET that found the owner's value, that is two round trips; with
// no check at all, it extends whoever holds the lock. A SET made when the value
// read differs updates a cache, and a SET of another key is the work.
package setrefresh

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errNotOwner = errors.New("not the owner")

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

// Client is an in-house client: its Set rewrites a key with a TTL.
type Client struct{ rdb *redis.Client }

func (c *Client) Get(ctx context.Context, key string) (string, error) {
	return c.rdb.Get(ctx, key).Result()
}

func (c *Client) Set(ctx context.Context, key, value string, ttl time.Duration) error {
	return c.rdb.Set(ctx, key, value, ttl).Err()
}

// Refresh renews the lease when the caller still holds it, in two steps.
func Refresh(ctx context.Context, c *Client, key, token string, ttl time.Duration) error {
	stored, err := c.Get(ctx, key)
	if err != nil {
		return err
	}
	if stored != token {
		return errNotOwner
	}
	return c.Set(ctx, key, token, ttl) // want `lock refreshed by GET, compare, then SET: it can change hands in between; compare and refresh in one Lua script`
}

// RefreshDirect does the same on go-redis.
func RefreshDirect(ctx context.Context, rdb *redis.Client, key, token string) error {
	if rdb.Get(ctx, key).Val() == token {
		return rdb.Set(ctx, key, token, 30*time.Second).Err() // want `lock refreshed by GET, compare, then SET`
	}
	return errNotOwner
}

func work() {}

func Job(ctx context.Context, c *Client, rdb *redis.Client, id string) error {
	key := "lock:job:" + id
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	if err := Refresh(ctx, c, key, token, 10*time.Second); err != nil {
		return err
	}
	work()
	rdb.Set(ctx, key, token, time.Minute) // want `lock refreshed with SET without an owner check: it can extend another holder's lock`
	return rdb.Set(ctx, "result:"+id, "done", time.Hour).Err()
}

// Cache updates: the SET runs when what was read differs.
func UpdateCache(ctx context.Context, c *Client, key, value string) error {
	old, err := c.Get(ctx, key)
	if err != nil {
		return err
	}
	if old != value {
		return c.Set(ctx, key, value, time.Hour)
	}
	return nil
}

func UpdateCacheDirect(ctx context.Context, rdb *redis.Client, key, value string) {
	if rdb.Get(ctx, key).Val() == value {
		return
	}
	rdb.Set(ctx, key, value, time.Hour)
}
