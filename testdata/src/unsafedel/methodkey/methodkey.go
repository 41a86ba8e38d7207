// Package methodkey keys its lock by a method of the lock's owner: the
// methods that take and let go of lockKey() pair into one lock, reported
// where the type is declared.
package methodkey

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Leader struct {
	rdb       *redis.Client
	subsystem string
	token     string
	locked    bool
}

func (h *Leader) lockKey() string { return "leader:" + h.subsystem }

func (h *Leader) retry(ctx context.Context) {
	for !h.locked {
		ok, err := h.rdb.SetNX(ctx, h.lockKey(), h.token, time.Minute).Result()
		if err == nil && ok {
			h.locked = true
			return
		}
		time.Sleep(time.Second)
	}
}

func (h *Leader) Finalize(ctx context.Context) {
	if h.locked {
		h.rdb.Del(ctx, h.lockKey()) // want `lock released with plain DEL`
	}
}

func NewLeader(rdb *redis.Client, subsystem string) *Leader {
	return &Leader{rdb: rdb, subsystem: subsystem, token: uuid.NewString()}
}
