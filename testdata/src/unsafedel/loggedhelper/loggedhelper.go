// Package loggedhelper is a scheduled task that takes its lock through a pair of
// methods of its own; the release deletes the key whoever holds it.
package loggedhelper

import (
	"context"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

const lockTimeout = 5 * time.Minute

// The key is a package variable, set once: as fixed as a constant.
var lockKey = "reset_traffic_lock"

type svc struct{ Redis *redis.Client }

type ResetLogic struct{ svc *svc }

func (l *ResetLogic) Execute(ctx context.Context) (err error) {
	if !l.acquireLock(ctx) {
		log.Println("another task is running")
		return nil
	}
	defer l.releaseLock(ctx)
	return nil
}

func (l *ResetLogic) acquireLock(ctx context.Context) bool {
	result := l.svc.Redis.SetNX(ctx, lockKey, "locked", lockTimeout)
	acquired, err := result.Result()
	if err != nil {
		log.Println("failed to acquire lock", err)
		return false
	}
	if acquired {
		log.Println("lock acquired")
	} else {
		log.Println("lock already exists")
	}
	return acquired
}

func (l *ResetLogic) releaseLock(ctx context.Context) {
	if err := l.svc.Redis.Del(ctx, lockKey).Err(); err != nil { // want `lock released with plain DEL`
		log.Println("failed to release lock", err)
	} else {
		log.Println("lock released")
	}
}
