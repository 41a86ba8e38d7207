// Package instancevalue keeps one lock object per process and takes each
// lock's key from its caller, but stores a value the constructor drew once
// (the hostname, an instance uuid): every acquisition through the object
// stores it, so a holder whose lease ran out matches the next acquisition
// and releases or extends it. Objects made per lock, values drawn per
// acquisition and leader election on one fixed key stay silent.
package instancevalue

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
	id, err := os.Hostname()
	if err != nil {
		id = uuid.NewString()
	}
	return &HostLock{rdb: rdb, id: id}
}

func (l *HostLock) TryLock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, key, l.id, ttl).Result() // want `lock value HostLock.id is set once per lock object`
}

func (l *HostLock) Unlock(ctx context.Context, key string) error {
	return unlockScript.Run(ctx, l.rdb, []string{key}, l.id).Err()
}

// Scheduler draws its instance id once and locks each job by name.
type Scheduler struct {
	rdb        *redis.Client
	instanceID string
}

func NewScheduler(rdb *redis.Client) *Scheduler {
	return &Scheduler{rdb: rdb, instanceID: uuid.NewString()}
}

func (s *Scheduler) AcquireJobLock(ctx context.Context, job string, ttl time.Duration) (bool, error) {
	ok, err := s.rdb.SetNX(ctx, "cron:lock:"+job, s.instanceID, ttl).Result() // want `lock value Scheduler.instanceID is set once per lock object`
	if err != nil {
		return false, err
	}
	return ok, nil
}

func (s *Scheduler) ReleaseJobLock(ctx context.Context, job string) error {
	return unlockScript.Run(ctx, s.rdb, []string{"cron:lock:" + job}, s.instanceID).Err()
}

// Leader election keys one fixed key by the instance: leadership belongs
// to the process, as the value says.
func (s *Scheduler) campaign(ctx context.Context) bool {
	ok, err := s.rdb.SetNX(ctx, "cron:leader", s.instanceID, 10*time.Second).Result()
	return err == nil && ok
}

// Mutex is made for one key, per acquisition: its value is that
// acquisition's.
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

// Locker draws a new token at each acquisition and keeps it for the
// release.
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

func run(ctx context.Context, s *Scheduler, h *HostLock, m *Mutex, l *Locker) {
	if s.campaign(ctx) {
		work()
	}
	if ok, err := s.AcquireJobLock(ctx, "report", time.Minute); err == nil && ok {
		defer s.ReleaseJobLock(ctx, "report")
		work()
	}
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

// Worker hands its lock manager the id it drew once, per job.
type Worker struct {
	locks *Locker
	id    string
}

func NewWorker(locks *Locker) *Worker {
	return &Worker{locks: locks, id: "worker-" + uuid.NewString()}
}

// Manager takes the value from its caller.
type Manager struct{ rdb *redis.Client }

func (m *Manager) Acquire(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	return m.rdb.SetNX(ctx, key, owner, ttl).Result()
}

func (m *Manager) Release(ctx context.Context, key, owner string) error {
	return unlockScript.Run(ctx, m.rdb, []string{key}, owner).Err()
}

func (w *Worker) process(ctx context.Context, m *Manager, job string) error {
	ok, err := m.Acquire(ctx, "lock:job:"+job, w.id, time.Minute) // want `lock value Worker.id is set once per lock object`
	if err != nil || !ok {
		return err
	}
	defer m.Release(ctx, "lock:job:"+job, w.id)
	work()
	return nil
}
