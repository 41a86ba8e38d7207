// Package fencer is an in-house lock that returns a fencing token: from the
// script that takes the lock (a token), or from an INCR sent after it (none).
package fencer

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrBusy = errors.New("busy")

var acquire = redis.NewScript(`
if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
	return redis.call("incr", KEYS[2])
end
return 0`)

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

type Fencer struct{ rdb *redis.Client }

// Acquire takes name for owner and returns the token the script issued
// with the grant.
func (f *Fencer) Acquire(ctx context.Context, name, owner string) (int64, error) {
	token, err := acquire.Run(ctx, f.rdb, []string{"lock:" + name, "fence:" + name}, owner, 10000).Int64()
	if err != nil {
		return 0, err
	}
	if token == 0 {
		return 0, ErrBusy
	}
	return token, nil
}

// AcquireThenCount takes name and then draws a token in a round trip of its
// own: a holder that pauses between the two draws a newer token than its
// successor's.
func (f *Fencer) AcquireThenCount(ctx context.Context, name, owner string) (int64, error) {
	ok, err := f.rdb.SetNX(ctx, "lock:"+name, owner, 10*time.Second).Result()
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, ErrBusy
	}
	return f.rdb.Incr(ctx, "fence:"+name).Result()
}

// Release gives name back if owner still holds it.
func (f *Fencer) Release(ctx context.Context, name, owner string) error {
	return release.Run(ctx, f.rdb, []string{"lock:" + name}, owner).Err()
}
