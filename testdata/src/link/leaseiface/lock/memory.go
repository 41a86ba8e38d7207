package lock

import (
	"context"
	"sync"
	"time"
)

// MemoryLocker is the stand-in for tests and single-node runs: it takes no
// part in what the program's Redis locks do.
type MemoryLocker struct {
	mu    sync.Mutex
	locks map[string]time.Time
}

func NewMemoryLocker() *MemoryLocker { return &MemoryLocker{locks: map[string]time.Time{}} }

func (l *MemoryLocker) Acquire(ctx context.Context, key string, ttl time.Duration) (Lock, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if until, ok := l.locks[key]; ok && until.After(time.Now()) {
		return nil, ErrNotAcquired
	}
	l.locks[key] = time.Now().Add(ttl)
	return &memoryLock{key: key, locker: l}, nil
}

type memoryLock struct {
	key    string
	locker *MemoryLocker
}

func (m *memoryLock) Key() string { return m.key }

func (m *memoryLock) Release(ctx context.Context) error {
	m.locker.mu.Lock()
	defer m.locker.mu.Unlock()
	delete(m.locker.locks, m.key)
	return nil
}
