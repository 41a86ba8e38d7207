// Package evalslice hands its script's arguments to Eval as one slice, which
// go-redis spreads into ARGV[1], ARGV[2].
package evalslice

import (
	"context"
	"strconv"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const (
	lockScript = `return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`
	delScript  = `return redis.call("DEL", KEYS[1])`
)

type Locker struct {
	client *redis.Client
	key    string
	value  string
	ttlMS  int
}

func NewLocker(client *redis.Client, key, value string) *Locker {
	return &Locker{client: client, key: key, value: value, ttlMS: 60000}
}

func (l *Locker) Acquire(ctx context.Context) (bool, error) {
	resp, err := l.client.Eval(ctx, lockScript, []string{l.key}, []string{l.value, strconv.Itoa(l.ttlMS)}).Result()
	if err == redis.Nil {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return resp == "OK", nil
}

func (l *Locker) Release(ctx context.Context) error {
	return l.client.Eval(ctx, delScript, []string{l.key}).Err()
}

func persist(ctx context.Context, rdb *redis.Client, box string) error {
	lock := NewLocker(rdb, "persist:"+box, "lock") // want `lock value given to NewLocker is a constant`
	ok, err := lock.Acquire(ctx)
	if err != nil || !ok {
		return err
	}
	defer lock.Release(ctx)
	return nil
}

func persistOwned(ctx context.Context, rdb *redis.Client, box string) error {
	lock := NewLocker(rdb, "persist:"+box, uuid.NewString())
	ok, err := lock.Acquire(ctx)
	if err != nil || !ok {
		return err
	}
	defer lock.Release(ctx)
	return nil
}
