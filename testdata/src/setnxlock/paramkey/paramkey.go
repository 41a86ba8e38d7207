// Package paramkey takes a device's lock in one function and deletes it in
// another, each building the key from the context both are given.
package paramkey

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

const deviceLockKey = "lora:device:%s:lock"

type session struct{ DevEUI string }

type jobContext struct {
	ctx     context.Context
	Session session
	Gateway string
}

var errAbort = errors.New("abort")

func lockDevice(c *jobContext) error {
	key := fmt.Sprintf(deviceLockKey, c.Session.DevEUI)
	set, err := rdb.SetNX(c.ctx, key, "lock", 5*time.Second).Result() // want `lock value is a constant: holders cannot be told apart; store a unique token`
	if err != nil {
		return err
	}
	if !set {
		return errAbort
	}
	return nil
}

func lockGateway(c *jobContext) error {
	set, err := rdb.SetNX(c.ctx, "lora:gw:"+c.Gateway, "lock", time.Second).Result()
	if err != nil {
		return err
	}
	if !set {
		// Nothing was sent for the device: give its lock back.
		key := fmt.Sprintf(deviceLockKey, c.Session.DevEUI)
		_ = rdb.Del(c.ctx, key).Err()
		return errAbort
	}
	return nil
}

// Silent: a throttle that nothing deletes (lockGateway's own key), and a
// key of the same shape built from another type's field, which names other
// keys.
type fleet struct {
	ctx     context.Context
	Session session
}

func markSeen(c *jobContext) bool {
	ok, err := rdb.SetNX(c.ctx, "lora:seen:"+c.Session.DevEUI, "1", time.Minute).Result()
	return err == nil && ok
}

func forget(f *fleet) {
	rdb.Del(f.ctx, "lora:seen:"+f.Session.DevEUI)
}
