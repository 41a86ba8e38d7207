// Package service declares the lock port it uses and implements it in the
// same package: the implementation's own problems are reported in it, once,
// not at each call through the port.
package service

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type LockService struct{ client *redis.Client }

func NewLockService(client *redis.Client) *LockService { return &LockService{client: client} }

func (s *LockService) Lock(ctx context.Context, key string, ttl time.Duration) error {
	ok, err := s.client.SetNX(ctx, "lock:"+key, "1", ttl).Result() // want `lock value is a constant`
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("failed to acquire lock")
	}
	return nil
}

func (s *LockService) Unlock(ctx context.Context, key string) error {
	return s.client.Del(ctx, "lock:"+key).Err() // want `lock released with plain DEL`
}
