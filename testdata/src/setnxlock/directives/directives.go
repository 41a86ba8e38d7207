// Package directives holds //lockvet:ignore directives: honoured by the check
// itself, and reported when they give no reason or silence nothing.
package directives

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func work() {}

func silenced(ctx context.Context, rdb *redis.Client) {
	//lockvet:ignore setnxlock a single cron host takes this lock; the value is never compared
	if rdb.SetNX(ctx, "lock:cron", 1, time.Minute).Val() {
		defer rdb.Del(ctx, "lock:cron")
		work()
	}
}

func sameLine(ctx context.Context, rdb *redis.Client) {
	if rdb.SetNX(ctx, "lock:cron", 1, time.Minute).Val() { //lockvet:ignore setnxlock,unsafedel one host only
		defer rdb.Del(ctx, "lock:cron")
		work()
	}
}

func noReason(ctx context.Context, rdb *redis.Client) {
	//lockvet:ignore setnxlock // want `lockvet directive for setnxlock gives no reason: say why the finding is wrong`
	if rdb.SetNX(ctx, "lock:cron", 1, time.Minute).Val() { // want `lock value is a constant`
		defer rdb.Del(ctx, "lock:cron")
		work()
	}
}

func unused(ctx context.Context, rdb *redis.Client, token string) {
	//lockvet:ignore setnxlock the token is unique // want `lockvet directive for setnxlock suppresses nothing: remove it`
	if rdb.SetNX(ctx, "lock:cron", token, time.Minute).Val() {
		defer rdb.Del(ctx, "lock:cron")
		work()
	}
}

// A directive for another check is that check's business.
func otherCheck(ctx context.Context, rdb *redis.Client, token string) {
	//lockvet:ignore unsafedel released by the owner only
	if rdb.SetNX(ctx, "lock:cron", token, time.Minute).Val() {
		defer rdb.Del(ctx, "lock:cron")
		work()
	}
}
