package main

import (
	"context"
	"database/sql"
	"os"

	"github.com/redis/go-redis/v9"

	"testcases/link/leaseiface/lock"
	"testcases/link/leaseiface/repo"
	"testcases/link/leaseiface/service"
)

func main() {
	var locker lock.Locker = lock.NewRedisLocker(redis.NewClient(&redis.Options{}))
	if os.Getenv("SINGLE_NODE") != "" {
		locker = lock.NewMemoryLocker()
	}
	w := service.NewWorker(repo.Tasks{DB: (*sql.DB)(nil)}, locker)
	_ = w.Poll(context.Background())
}
