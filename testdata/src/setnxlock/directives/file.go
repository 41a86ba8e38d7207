//lockvet:file-ignore setnxlock this file is a migration shim, run by hand once

package directives

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func shim(ctx context.Context, rdb *redis.Client) {
	if rdb.SetNX(ctx, "lock:shim", 1, 0).Val() {
		defer rdb.Del(ctx, "lock:shim")
		work()
	}
}
