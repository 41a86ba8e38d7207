// Package globalvalue stores lock values held in package-level variables,
// and through a wrapper that encodes the value it is given. A variable the
// package sets once, from constants, is a constant; one set from a flag or
// at run time is not.
package globalvalue

import (
	"context"
	"encoding/json"
	"flag"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var (
	locked, _ = json.Marshal(true)
	holder    = "worker"
	fromFlag  = "default"
	perRun    = "unset"
)

func init() {
	flag.StringVar(&fromFlag, "holder", fromFlag, "lock holder name")
}

func start() { perRun = uuid.NewString() }

type repository struct{ rdb *redis.Client }

// setNX encodes the value: the same argument stores the same bytes.
func (r *repository) setNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	b, err := json.Marshal(value)
	if err != nil {
		return false, err
	}
	return r.rdb.SetNX(ctx, key, string(b), ttl).Result()
}

func (r *repository) del(ctx context.Context, key string) error {
	return r.rdb.Del(ctx, key).Err()
}

func work() {}

func marshalled(ctx context.Context, r *repository, id string) error {
	ok, err := r.setNX(ctx, "account:"+id, locked, 10*time.Second) // want `lock value is a constant in setNX`
	if err != nil || !ok {
		return err
	}
	defer r.del(ctx, "account:"+id)
	work()
	return nil
}

func literal(ctx context.Context, r *repository, id string) error {
	ok, err := r.setNX(ctx, "account:"+id, true, 10*time.Second) // want `lock value is a constant in setNX`
	if err != nil || !ok {
		return err
	}
	defer r.del(ctx, "account:"+id)
	work()
	return nil
}

func unique(ctx context.Context, r *repository, id string) error {
	ok, err := r.setNX(ctx, "account:"+id, uuid.NewString(), 10*time.Second)
	if err != nil || !ok {
		return err
	}
	defer r.del(ctx, "account:"+id)
	work()
	return nil
}

func named(ctx context.Context, rdb *redis.Client, id string) error {
	ok, err := rdb.SetNX(ctx, "job:"+id, holder, time.Minute).Result() // want `lock value is a constant`
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "job:"+id)
	work()
	return nil
}

// Variables the program sets at run time hold what it chose.
func configured(ctx context.Context, rdb *redis.Client, id string) error {
	ok, err := rdb.SetNX(ctx, "job:"+id, fromFlag, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "job:"+id)
	work()
	return nil
}

func drawn(ctx context.Context, rdb *redis.Client, id string) error {
	ok, err := rdb.SetNX(ctx, "job:"+id, perRun, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "job:"+id)
	work()
	return nil
}
