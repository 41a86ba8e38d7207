// Package accountlock is a helper module's lock: a constant value and no
// TTL, decided here, reported where the program that imports it pairs it.
package accountlock

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

func key(id string) string { return fmt.Sprintf("account-lock:%v", id) }

func Lock(id string) error {
	ok, err := rdb.SetNX(context.Background(), key(id), 1, 0).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("locked")
	}
	return nil
}

func Unlock(id string) error {
	return rdb.Del(context.Background(), key(id)).Err()
}
