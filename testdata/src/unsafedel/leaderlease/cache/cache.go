// Package cache forwards Redis commands from a package-level client, under
// its own namespace.
package cache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var client *redis.Client

func serialKey(key string) string { return "plugin_daemon:" + key }

func SetNX(key string, value any, ttl time.Duration) (bool, error) {
	return client.SetNX(context.Background(), serialKey(key), value, ttl).Result()
}

func Expire(key string, ttl time.Duration) (bool, error) {
	return client.Expire(context.Background(), serialKey(key), ttl).Result()
}
