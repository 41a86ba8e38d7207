package main

import (
	"context"

	"github.com/redis/go-redis/v9"

	"testcases/link/sameport/service"
)

func main() {
	s := service.NewCreditService(service.NewLockService(redis.NewClient(&redis.Options{})))
	_ = s.Transfer(context.Background(), "a")
}
