// Package readback is a lock object that confirms its SETNX by reading the
// key back and comparing it with the value it stored, inside a conjunction.
// The confirmation makes Lock a lock, so its plain DEL is a release.
package readback

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

type Locker struct {
	Key        string
	Value      string
	ExpireTime time.Duration
	Conn       redis.UniversalClient
	Ctx        context.Context
}

func NewLocker(key, value string, expireTime time.Duration, conn redis.UniversalClient) *Locker {
	return &Locker{Key: key, Value: value, ExpireTime: expireTime, Conn: conn, Ctx: context.Background()}
}

func (o *Locker) Lock() (bool, error) {
	_, err := o.Conn.SetNX(o.Ctx, o.Key, o.Value, o.ExpireTime*time.Second).Result()
	if err != nil {
		return false, err
	}
	get, err := o.Conn.Get(o.Ctx, o.Key).Result()
	if err != nil {
		return false, err
	}
	return get != "" && get == o.Value, nil
}

func (o *Locker) UnLock() error {
	_, err := o.Conn.Del(o.Ctx, o.Key).Result() // want `lock released with plain DEL`
	return err
}
