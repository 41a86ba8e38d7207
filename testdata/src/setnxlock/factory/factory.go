// Package factory takes a lock made by a factory in a helper that returns the
// lock object: the caller releases it through the object, so the helper's
// result is the lease, and how the caller treats its error decides.
package factory

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

// Manager makes mutexes by name.
type Manager struct{ rdb *redis.Client }

func (m *Manager) NewMutex(key string) *Mutex {
	return &Mutex{rdb: m.rdb, key: "lock:" + key, value: uuid.NewString()}
}

type Mutex struct {
	rdb        *redis.Client
	key, value string
}

func (mx *Mutex) Lock(ctx context.Context) error {
	ok, err := mx.rdb.SetNX(ctx, mx.key, mx.value, 8*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func (mx *Mutex) Unlock(ctx context.Context) error {
	return unlockScript.Run(ctx, mx.rdb, []string{mx.key}, mx.value).Err()
}

// globalLock returns the mutex it locked, and whether it could.
func globalLock(ctx context.Context, m *Manager) (*Mutex, error) {
	mx := m.NewMutex("jobs")
	err := mx.Lock(ctx)
	return mx, err
}

func work() {}

func Update(ctx context.Context, m *Manager) {
	if mx, err := globalLock(ctx, m); err != nil { // want `lock failure does not stop the work`
		log.Printf("no global lock, updating anyway: %v", err)
	} else {
		defer mx.Unlock(ctx)
	}
	work()
}

func UpdateChecked(ctx context.Context, m *Manager) error {
	mx, err := globalLock(ctx, m)
	if err != nil {
		return err
	}
	defer mx.Unlock(ctx)
	work()
	return nil
}

// TryLock returns the mutex itself, for chaining: the caller's own object.
func (mx *Mutex) TryLock(ctx context.Context) (*Mutex, error) {
	return mx, mx.Lock(ctx)
}

func Chained(ctx context.Context, m *Manager) error {
	mx := m.NewMutex("chained")
	if _, err := mx.TryLock(ctx); err != nil {
		return err
	}
	defer mx.Unlock(ctx)
	work()
	return nil
}

func ChainedLogged(ctx context.Context, m *Manager) {
	mx := m.NewMutex("chained")
	if _, err := mx.TryLock(ctx); err != nil { // want `lock failure does not stop the work`
		log.Printf("lock: %v", err)
	}
	defer mx.Unlock(ctx)
	work()
}

// The release in a deferred closure captures the mutex.
func UpdateClosure(ctx context.Context, m *Manager) {
	if mx, err := globalLock(ctx, m); err != nil { // want `lock failure does not stop the work`
		log.Printf("no global lock, updating anyway: %v", err)
	} else {
		defer func() {
			if err := mx.Unlock(ctx); err != nil {
				log.Printf("unlock: %v", err)
			}
		}()
	}
	work()
}
