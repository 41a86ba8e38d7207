// Package lease is an in-house lock client whose server lockvet cannot see;
// .golangci.yml names its functions in the acquire and release settings.
package lease

import (
	"context"
	"time"
)

// Lease is a held lock.
type Lease struct{ key string }

// Acquire asks the lock service for key.
func Acquire(ctx context.Context, key string, ttl time.Duration) (*Lease, error) {
	return &Lease{key: key}, nil
}

// Release gives the lease back.
func (l *Lease) Release(ctx context.Context) error { return nil }
