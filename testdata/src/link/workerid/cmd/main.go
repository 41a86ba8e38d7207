package main

import (
	"context"

	"github.com/redis/go-redis/v9"

	"testcases/link/workerid/lock"
	"testcases/link/workerid/worker"
)

func main() {
	s := worker.NewService("").WithLockManager(lock.NewRedisLock(redis.NewClient(&redis.Options{})))
	_ = s.ProcessJob(context.Background(), worker.Job{})
}
