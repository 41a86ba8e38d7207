// Package lease is an in-house lock client whose server side lockvet cannot
// see: the tests name its functions with -lockmodel.acquire and
// -lockmodel.release.
package lease

import (
	"context"
	"net/http"
	"time"
)

// Lease is a held lock.
type Lease struct{ id string }

// Acquire asks the lock service for key.
func Acquire(ctx context.Context, key string, ttl time.Duration) (*Lease, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://locks/"+key, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return &Lease{id: key}, nil
}

// Release gives the lease back.
func (l *Lease) Release(ctx context.Context) error { return nil }

// Lock and Unlock are the key-based flavour of the same service.
func Lock(ctx context.Context, key string) error { return nil }

func Unlock(ctx context.Context, key string) {}
