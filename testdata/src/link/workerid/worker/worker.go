// Package worker runs jobs in several slots of one process, each under a
// lock whose owner value is the worker's id: the same in every slot, so a
// slot whose lease ran out releases the lock another slot took next on the
// same job.
package worker

import (
	"context"
	"time"

	"github.com/google/uuid"
)

type LockManager interface {
	Acquire(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	Release(ctx context.Context, key, owner string) (bool, error)
}

type Job struct {
	ID      uuid.UUID
	Attempt int
}

type Service struct {
	workerID    string
	lockManager LockManager
}

func NewService(workerID string) *Service {
	if workerID == "" {
		workerID = "worker-" + uuid.NewString()
	}
	return &Service{workerID: workerID, lockManager: noopLockManager{}}
}

// WithLockManager replaces the stand-in that lets every job through.
func (s *Service) WithLockManager(locks LockManager) *Service {
	if locks != nil {
		s.lockManager = locks
	}
	return s
}

type noopLockManager struct{}

func (noopLockManager) Acquire(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	return true, nil
}

func (noopLockManager) Release(ctx context.Context, key, owner string) (bool, error) {
	return true, nil
}

func (s *Service) ProcessJob(ctx context.Context, j Job) error {
	lockKey := "lock:job:" + j.ID.String()
	acquired, err := s.lockManager.Acquire(ctx, lockKey, s.workerID, time.Minute) // want `lock value Service.workerID is set once per lock object`
	if err != nil || !acquired {
		return err
	}
	defer func() {
		if _, err := s.lockManager.Release(context.Background(), lockKey, s.workerID); err != nil { // want `compare-and-delete in Release with Service.workerID, set once per lock object`
			println("release", j.ID.String(), err.Error())
		}
	}()
	// The job is a copy the function changes; its ID, which the key is
	// made of, it only reads.
	j.Attempt++
	return nil
}
