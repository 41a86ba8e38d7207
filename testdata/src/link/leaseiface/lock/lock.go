// Package lock is the service's port for locks: an interface whose Acquire
// hands back a lease, itself an interface, that releases what it acquired.
package lock

import (
	"context"
	"errors"
	"time"
)

var ErrNotAcquired = errors.New("lock not acquired")

type Lock interface {
	Key() string
	Release(ctx context.Context) error
}

type Locker interface {
	Acquire(ctx context.Context, key string, ttl time.Duration) (Lock, error)
}
