// Package global holds the clients the service shares.
package global

import "github.com/redis/go-redis/v9"

var RedisClient *redis.Client
