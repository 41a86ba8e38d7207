// Package clientcompare releases its lock through a thin in-house client:
// GET, compare in Go, then the client's plain Delete. The two round trips are
// the release's own doing, so they are reported in Release, not in the
// client's Delete, which deletes caches too.
package clientcompare

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Client struct{ rdb *redis.Client }

func (c *Client) SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, "app:"+key, value, ttl).Result()
}

func (c *Client) Get(ctx context.Context, key string) (string, error) {
	return c.rdb.Get(ctx, "app:"+key).Result()
}

func (c *Client) Delete(ctx context.Context, key string) error {
	return c.rdb.Del(ctx, "app:"+key).Err()
}

type Lock struct {
	client     *Client
	key, value string
}

func NewLock(c *Client, key string) *Lock {
	return &Lock{client: c, key: key, value: uuid.NewString()}
}

func (l *Lock) TryAcquire(ctx context.Context) (bool, error) {
	return l.client.SetNX(ctx, l.key, l.value, 10*time.Second)
}

func (l *Lock) Release(ctx context.Context) error {
	val, err := l.client.Get(ctx, l.key)
	if err != nil {
		return err
	}
	if val == l.value {
		return l.client.Delete(ctx, l.key) // want `lock released by GET, compare, then DEL`
	}
	return nil
}

// A cache entry the same client deletes is no lock.
func invalidate(ctx context.Context, c *Client, id string) error {
	return c.Delete(ctx, "order:"+id)
}

func withLock(ctx context.Context, c *Client, key string, fn func() error) error {
	l := NewLock(c, key)
	ok, err := l.TryAcquire(ctx)
	if err != nil || !ok {
		return err
	}
	defer l.Release(ctx)
	return fn()
}
