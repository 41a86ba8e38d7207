// Package service holds the lock and the repository through interfaces it
// declares; it imports neither implementation.
package service

import (
	"context"
	"errors"
	"time"

	"testcases/link/leaseiface/lock"
)

type TaskRepository interface {
	NextID(ctx context.Context) (int64, error)
	Fail(ctx context.Context, id int64) error
}

type Worker struct {
	repo   TaskRepository
	locker lock.Locker
}

func NewWorker(repo TaskRepository, locker lock.Locker) Worker {
	return Worker{repo: repo, locker: locker}
}

func (w Worker) Poll(ctx context.Context) error {
	guard, err := w.locker.Acquire(ctx, "migrate:worker", 30*time.Second) // want `lock only guards database work`
	if err != nil {
		if errors.Is(err, lock.ErrNotAcquired) {
			return nil
		}
		return err
	}
	defer guard.Release(ctx)

	id, err := w.repo.NextID(ctx)
	if err != nil {
		return err
	}
	return w.repo.Fail(ctx, id) // want `unfenced write \(in Fail\) under a TTL lock`
}
