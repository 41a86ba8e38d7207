// Package service takes the store's helper lock around its work.
package service

import (
	"context"
	"time"

	"testcases/link/helperpair/store"
)

func Settle(ctx context.Context, h *store.Helper, id string) error {
	ok, err := h.Lock(ctx, "lock:settle:"+id, time.Minute)
	if err != nil || !ok {
		return err
	}
	defer h.Unlock(ctx, "lock:settle:"+id)
	return nil
}
