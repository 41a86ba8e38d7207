package service

import (
	"context"
	"time"
)

type LockManager interface {
	Lock(ctx context.Context, key string, ttl time.Duration) error
	Unlock(ctx context.Context, key string) error
}

type CreditService struct{ locks LockManager }

func NewCreditService(locks LockManager) *CreditService { return &CreditService{locks: locks} }

func (s *CreditService) Transfer(ctx context.Context, from string) error {
	if err := s.locks.Lock(ctx, "transfer:"+from, 10*time.Second); err != nil {
		return err
	}
	defer s.locks.Unlock(ctx, "transfer:"+from)
	return nil
}

func (s *CreditService) Escrow(ctx context.Context, id string) error {
	if err := s.locks.Lock(ctx, "escrow:"+id, 10*time.Second); err != nil {
		return err
	}
	defer s.locks.Unlock(ctx, "escrow:"+id)
	return nil
}
