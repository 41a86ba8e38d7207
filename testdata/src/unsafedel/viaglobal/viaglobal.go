// Package viaglobal locks through a client another package holds in a
// variable (global.RedisClient.SetNX), without importing go-redis itself:
// its locks are seen all the same.
package viaglobal

import (
	"context"
	"time"

	"github.com/google/uuid"

	"testcases/unsafedel/viaglobal/global"
)

func work() {}

func settle(ctx context.Context, id string) error {
	ok, err := global.RedisClient.SetNX(ctx, "settle:"+id, uuid.NewString(), 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer global.RedisClient.Del(ctx, "settle:"+id) // want `lock released with plain DEL`
	work()
	return nil
}
