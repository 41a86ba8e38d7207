// Package shapes holds wrapper shapes real services write: a script built
// with fmt.Sprintf, a renewal in a goroutine on a ticker, and a value read
// back from the same field it was stored from.
package shapes

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

func work() {}

const tmpl = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("%s", KEYS[1]) else return 0 end`

var unlock = redis.NewScript(fmt.Sprintf(tmpl, "del"))

var unguarded = redis.NewScript(fmt.Sprintf(`return redis.call("%s", KEYS[%d])`, "del", 1))

func sprintfScript(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	if !rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Val() {
		return
	}
	defer unlock.Run(ctx, rdb, []string{"lock:" + id}, token)
	work()
}

func sprintfUnguarded(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	if !rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Val() {
		return
	}
	defer unguarded.Run(ctx, rdb, []string{"lock:" + id}) // want `lock released with plain DEL`
	work()
}

// A renewal on a ticker, in a goroutine started under the lock.
func renewed(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	if !rdb.SetNX(ctx, "lock:"+id, token, 10*time.Second).Val() {
		return
	}
	defer unlock.Run(ctx, rdb, []string{"lock:" + id}, token)
	done := make(chan struct{})
	defer close(done)
	go func() {
		t := time.NewTicker(3 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				rdb.Expire(ctx, "lock:"+id, 10*time.Second) // want `lock refreshed with EXPIRE without an owner check`
			case <-done:
				return
			}
		}
	}()
	work()
}

// A lock object that reads its value back from the field it stored it from.
type Mutex struct {
	rdb        *redis.Client
	key, value string
}

func NewMutex(rdb *redis.Client, key string) *Mutex {
	return &Mutex{rdb: rdb, key: key, value: uuid.NewString()}
}

func (m *Mutex) Lock(ctx context.Context) bool {
	m.rdb.SetNX(ctx, m.key, m.value, time.Minute)
	return m.rdb.Get(ctx, m.key).Val() == m.value
}

func (m *Mutex) Unlock(ctx context.Context) {
	unlock.Run(ctx, m.rdb, []string{m.key}, m.value)
}
