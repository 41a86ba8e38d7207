// Package cache forwards Redis commands from a package-level client.
package cache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var client *redis.Client

func SetNX(key string, value any, ttl time.Duration) (bool, error) {
	return client.SetNX(context.Background(), key, value, ttl).Result()
}

func Expire(key string, ttl time.Duration) (bool, error) {
	return client.Expire(context.Background(), key, ttl).Result()
}
