// Package goredis holds go-redis v9 acquisitions that setnxlock judges.
package goredis

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

func work() {}

// The classic: a constant value and no owner identity.
func constValue(ctx context.Context, rdb *redis.Client, id string) {
	key := "lock:order:" + id
	if !rdb.SetNX(ctx, key, 1, 10*time.Second).Val() { // want `lock value is a constant: holders cannot be told apart; store a unique token`
		return
	}
	defer rdb.Del(ctx, key)
	work()
}

const lockedValue = "locked"

func namedConst(ctx context.Context, rdb redis.UniversalClient, id string) {
	key := "lock:" + id
	ok, err := rdb.SetNX(ctx, key, lockedValue, time.Minute).Result() // want `lock value is a constant`
	if err != nil || !ok {
		return
	}
	work()
	rdb.Del(ctx, key)
}

func noTTL(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	if !rdb.SetNX(ctx, "lock:"+id, token, 0).Val() { // want `lock has no TTL: a crashed holder keeps it forever; set a TTL when acquiring`
		return
	}
	work()
	rdb.Del(ctx, "lock:"+id)
}

func setArgsNoTTL(ctx context.Context, rdb redis.Cmdable, id string) {
	token := uuid.NewString()
	err := rdb.SetArgs(ctx, "lock:"+id, token, redis.SetArgs{Mode: "nx"}).Err() // want `lock has no TTL`
	if err != nil {
		return
	}
	work()
	rdb.Del(ctx, "lock:"+id)
}

func resultIgnored(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	rdb.SetNX(ctx, "lock:"+id, token, time.Minute) // want `lock result ignored: the work runs whether or not the lock was taken; check that it was acquired`
	work()
	rdb.Del(ctx, "lock:"+id)
}

// Checking only SetNX's error ignores the result: a taken lock is (false, nil).
func onlyErrChecked(ctx context.Context, rdb *redis.Client, id string) error {
	token := uuid.NewString()
	if err := rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Err(); err != nil { // want `lock result ignored`
		return err
	}
	work()
	return rdb.Del(ctx, "lock:"+id).Err()
}

// Reading the key back and comparing it with the stored value, before any
// work, tells whether this caller holds the lock: the result is checked.
func readBackConfirms(ctx context.Context, rdb *redis.Client, id string) error {
	token := uuid.NewString()
	if err := rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Err(); err != nil {
		return err
	}
	if owner, err := rdb.Get(ctx, "lock:"+id).Result(); err != nil || owner != token {
		return err
	}
	work()
	return rdb.Del(ctx, "lock:"+id).Err()
}

// …but not when the work has already run by the time the key is read back.
func readBackAfterWork(ctx context.Context, rdb *redis.Client, id string) error {
	token := uuid.NewString()
	rdb.SetNX(ctx, "lock:"+id, token, time.Minute) // want `lock result ignored`
	work()
	if rdb.Get(ctx, "lock:"+id).Val() == token {
		return rdb.Del(ctx, "lock:"+id).Err()
	}
	return nil
}

// For SET NX the not-set reply is redis.Nil, so an error check does gate…
func setArgsErrGates(ctx context.Context, rdb *redis.Client, id string) error {
	token := uuid.NewString()
	if err := rdb.SetArgs(ctx, "lock:"+id, token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err(); err != nil {
		return err
	}
	work()
	return rdb.Del(ctx, "lock:"+id).Err()
}

// …but comparing it only with redis.Nil lets a network error through.
func nilOnly(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	err := rdb.SetArgs(ctx, "lock:"+id, token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err() // want `only the not-set reply is checked: any other error passes as acquired; treat every error as not acquired`
	if errors.Is(err, redis.Nil) {
		return
	}
	work()
	rdb.Del(ctx, "lock:"+id)
}

// Testing the not-set reply and then every other error gates…
func nilThenAny(ctx context.Context, rdb *redis.Client, id string) error {
	token := uuid.NewString()
	err := rdb.SetArgs(ctx, "lock:"+id, token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err()
	if err == redis.Nil {
		return errors.New("busy")
	} else if err != nil {
		return err
	}
	work()
	return rdb.Del(ctx, "lock:"+id).Err()
}

// …but excusing the not-set reply from the error test lets a lost race in.
func nilExcused(ctx context.Context, rdb *redis.Client, id string) error {
	token := uuid.NewString()
	err := rdb.SetArgs(ctx, "lock:"+id, token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err() // want `lock result ignored`
	if err != nil && err != redis.Nil {
		return err
	}
	work()
	return rdb.Del(ctx, "lock:"+id).Err()
}

func doSetNX(ctx context.Context, rdb *redis.Client, id string) {
	res, err := rdb.Do(ctx, "set", "lock:"+id, "1", "nx").Result() // want `lock value is a constant` `lock has no TTL`
	if err != nil || res == nil {
		return
	}
	work()
	rdb.Do(ctx, "del", "lock:"+id)
}

func inTxPipeline(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, token, 0)
		pipe.Expire(ctx, key, time.Minute) // want `EXPIRE queued after SETNX also extends another holder's lock when SETNX fails; pass the TTL to SETNX`
		return nil
	})
	work()
	rdb.Del(ctx, key)
}

// A correct lock: unique token, TTL, result checked.
func good(ctx context.Context, rdb *redis.Client, id string) error {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:"+id, token, 10*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	work()
	return rdb.Del(ctx, "lock:"+id).Err()
}
