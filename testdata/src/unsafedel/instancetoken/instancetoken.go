// Package instancetoken releases locks with an owner check whose token the
// lock object's constructor drew once, though the object locks any key its
// callers name: a holder whose lease ran out matches the next acquisition
// through the same object and deletes it. A token drawn per acquisition,
// and an object made per lock, stay silent.
package instancetoken

import (
	"context"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

// HostLock is made once, in main, with the host's name.
type HostLock struct {
	rdb *redis.Client
	id  string
}

func NewHostLock(rdb *redis.Client) *HostLock {
	id, _ := os.Hostname()
	return &HostLock{rdb: rdb, id: id}
}

func (l *HostLock) TryLock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, key, l.id, ttl).Result()
}

func (l *HostLock) Unlock(ctx context.Context, key string) error {
	return unlockScript.Run(ctx, l.rdb, []string{key}, l.id).Err() // want `compare-and-delete with HostLock.id, set once per lock object`
}

// Mutex is made for one key, per acquisition.
type Mutex struct {
	rdb        *redis.Client
	key, value string
}

func NewMutex(rdb *redis.Client, key string) *Mutex {
	return &Mutex{rdb: rdb, key: key, value: uuid.NewString()}
}

func (m *Mutex) Lock(ctx context.Context, ttl time.Duration) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.value, ttl).Result()
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return unlockScript.Run(ctx, m.rdb, []string{m.key}, m.value).Err()
}

// Locker draws a token per acquisition.
type Locker struct {
	rdb   *redis.Client
	token string
}

func (l *Locker) Lock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	l.token = uuid.NewString()
	return l.rdb.SetNX(ctx, key, l.token, ttl).Result()
}

func (l *Locker) Unlock(ctx context.Context, key string) error {
	return unlockScript.Run(ctx, l.rdb, []string{key}, l.token).Err()
}

func work() {}

func run(ctx context.Context, h *HostLock, m *Mutex, l *Locker) {
	if ok, err := h.TryLock(ctx, "sync", time.Minute); err == nil && ok {
		defer h.Unlock(ctx, "sync")
		work()
	}
	if ok, err := m.Lock(ctx, time.Minute); err == nil && ok {
		defer m.Unlock(ctx)
		work()
	}
	if ok, err := l.Lock(ctx, "sync", time.Minute); err == nil && ok {
		defer l.Unlock(ctx, "sync")
		work()
	}
}

// Worker hands its lock manager the id it drew once.
type Worker struct{ id string }

func NewWorker() *Worker { return &Worker{id: "worker-" + uuid.NewString()} }

// Manager takes the owner value from its caller.
type Manager struct{ rdb *redis.Client }

func (m *Manager) Acquire(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	return m.rdb.SetNX(ctx, key, owner, ttl).Result()
}

func (m *Manager) Release(ctx context.Context, key, owner string) error {
	return unlockScript.Run(ctx, m.rdb, []string{key}, owner).Err()
}

func (w *Worker) process(ctx context.Context, m *Manager, job string) error {
	ok, err := m.Acquire(ctx, "lock:job:"+job, w.id, time.Minute)
	if err != nil || !ok {
		return err
	}
	defer m.Release(ctx, "lock:job:"+job, w.id) // want `compare-and-delete in Release with Worker.id, set once per lock object`
	work()
	return nil
}
