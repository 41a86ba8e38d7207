// Package forwarder wraps go-redis in a client whose methods forward each
// command under its own name. The forwarder decides nothing about a lock:
// Del is also how the cache is invalidated. The plain DEL of a lock key is
// the caller's choice, reported at the caller, once per calling function.
package forwarder

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Client struct{ rdb *redis.Client }

func (c *Client) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (c *Client) Del(ctx context.Context, keys ...string) error {
	return c.rdb.Del(ctx, keys...).Err()
}

func (c *Client) DeleteCtx(ctx context.Context, key string) error {
	return c.rdb.Del(ctx, key).Err()
}

func settle(ctx context.Context, c *Client, id string) error {
	key := "lock:settle:" + id
	ok, err := c.SetNX(ctx, key, uuid.NewString(), time.Minute)
	if err != nil || !ok {
		return err
	}
	defer c.Del(ctx, key) // want `lock released in forwarder.Client.Del with plain DEL`
	return c.Del(ctx, "cache:settle:"+id)
}

func refund(ctx context.Context, c *Client, id string) error {
	key := "lock:refund:" + id
	ok, err := c.SetNX(ctx, key, uuid.NewString(), time.Minute)
	if err != nil || !ok {
		return err
	}
	defer c.DeleteCtx(ctx, key) // want `lock released in forwarder.Client.DeleteCtx with plain DEL`
	return nil
}

// Prefixed is a cache client that puts its namespace before every key and
// does nothing when the cache is off: still a forwarder of the caller's key.
type Prefixed struct {
	rdb    *redis.Client
	prefix string
	on     bool
}

func (p *Prefixed) key(k string) string { return p.prefix + k }

func (p *Prefixed) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	if !p.on {
		return true, nil
	}
	return p.rdb.SetNX(ctx, p.key(key), value, ttl).Result()
}

func (p *Prefixed) Del(ctx context.Context, key string) error {
	if !p.on {
		return nil
	}
	return p.rdb.Del(ctx, p.key(key)).Err()
}

func syncStock(ctx context.Context, p *Prefixed) error {
	const key = "sync_stock_running"
	ok, err := p.SetNX(ctx, key, uuid.NewString(), 30*time.Minute)
	if err != nil || !ok {
		return err
	}
	defer p.Del(ctx, key) // want `lock released in forwarder.Prefixed.Del with plain DEL`
	return p.Del(ctx, "stock:cache")
}

// invalidate only clears the cache: no lock, nothing to report.
func invalidate(ctx context.Context, c *Client, id string) error {
	return c.Del(ctx, "cache:settle:"+id)
}
