// Package longlease takes locks with a long TTL: a lock all the same when
// it is let go where the work ends. A key that only an error deletes again
// is a marker, whatever its TTL (see lookalike); a long-lived one that some
// other failure deletes (a NACK, a timeout) is one too.
package longlease

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func rebuild(ctx context.Context, rdb *redis.Client, id string, work func() error) error {
	ok, err := rdb.SetNX(ctx, "lock:rebuild:"+id, "1", 2*time.Hour).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:rebuild:"+id) // want `lock released with plain DEL`
	return work()
}

func sweep(ctx context.Context, rdb *redis.Client, id string, work func() error) error {
	ok, err := rdb.SetNX(ctx, "lock:sweep:"+id, "1", 2*time.Hour).Result()
	if err != nil || !ok {
		return err
	}
	err = work()
	rdb.Del(ctx, "lock:sweep:"+id) // want `lock released with plain DEL`
	return err
}

func publishOnce(ctx context.Context, rdb *redis.Client, id string, acked func() bool) {
	ok, err := rdb.SetNX(ctx, "sent:"+id, "1", 24*time.Hour).Result()
	if err != nil || !ok {
		return
	}
	if !acked() {
		rdb.Del(ctx, "sent:"+id)
	}
}

// A short TTL released only on a NACK is still a lock.
func publishLocked(ctx context.Context, rdb *redis.Client, id string, acked func() bool) {
	ok, err := rdb.SetNX(ctx, "lock:send:"+id, "1", 30*time.Second).Result()
	if err != nil || !ok {
		return
	}
	if !acked() {
		rdb.Del(ctx, "lock:send:"+id) // want `lock released with plain DEL`
	}
}
