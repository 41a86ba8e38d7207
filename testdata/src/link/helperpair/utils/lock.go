// Package utils declares lock helpers that take the key from their caller
// and that nothing in the program calls: their names pair them, so what
// they decide alone is reported in them.
package utils

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var rds *redis.Client

func TryLock(ctx context.Context, key string) bool {
	ok, err := rds.SetNX(ctx, key, "1", 0).Result() // want `lock value is a constant` `lock has no TTL`
	return err == nil && ok
}

func UnLock(ctx context.Context, key string) {
	rds.Del(ctx, key) // want `lock released with plain DEL`
}
