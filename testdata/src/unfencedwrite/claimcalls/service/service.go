// Package service completes orders under a Redis lock through repository
// methods: code on the winning branch of a claim made in a callee is
// serialized by it; code on the losing branch, or after the claim's answer is
// dropped, is not.
package service

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"testcases/unfencedwrite/claimcalls/repo"
)

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

type Service struct {
	rdb    *redis.Client
	orders *repo.Orders
}

func (s *Service) lock(ctx context.Context, key string) (string, bool) {
	token := uuid.NewString()
	ok, err := s.rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	return token, err == nil && ok
}

func (s *Service) unlock(ctx context.Context, key, token string) {
	unlockScript.Run(ctx, s.rdb, []string{key}, token)
}

// The winner of MarkPaid credits; the loser returns.
func (s *Service) Pay(ctx context.Context, id int64) error {
	token, ok := s.lock(ctx, "lock:order")
	if !ok {
		return nil
	}
	defer s.unlock(ctx, "lock:order", token)
	if err := s.orders.MarkPaid(ctx, id); err != nil {
		if errors.Is(err, repo.ErrAlreadyPaid) {
			return nil
		}
		return err
	}
	return s.orders.Credit(ctx, id, 10)
}

// The same with the answer kept in a variable.
func (s *Service) PayKept(ctx context.Context, id int64) error {
	token, ok := s.lock(ctx, "lock:order")
	if !ok {
		return nil
	}
	defer s.unlock(ctx, "lock:order", token)
	err := s.orders.MarkPaid(ctx, id)
	if err != nil {
		return err
	}
	return s.orders.Credit(ctx, id, 10)
}

// The claim's answer thrown away: both workers credit.
func (s *Service) PayDropped(ctx context.Context, id int64) error {
	token, ok := s.lock(ctx, "lock:order")
	if !ok {
		return nil
	}
	defer s.unlock(ctx, "lock:order", token)
	_ = s.orders.MarkPaid(ctx, id)      // want `result of the conditional write \(in MarkPaid\) is ignored`
	return s.orders.Credit(ctx, id, 10) // want `unfenced write \(in Credit\) under a TTL lock`
}

// Only logged: the code goes on either way, which is dropping the answer.
func (s *Service) PayLogged(ctx context.Context, id int64) error {
	token, ok := s.lock(ctx, "lock:order")
	if !ok {
		return nil
	}
	defer s.unlock(ctx, "lock:order", token)
	if err := s.orders.MarkPaid(ctx, id); err != nil { // want `result of the conditional write \(in MarkPaid\) is ignored`
		log.Printf("mark paid: %v", err)
	}
	return s.orders.Credit(ctx, id, 10) // want `unfenced write \(in Credit\) under a TTL lock`
}

// Credited on the losing branch.
func (s *Service) PayLoser(ctx context.Context, id int64) error {
	token, ok := s.lock(ctx, "lock:order")
	if !ok {
		return nil
	}
	defer s.unlock(ctx, "lock:order", token)
	if err := s.orders.MarkPaid(ctx, id); err != nil {
		return s.orders.Credit(ctx, id, 1) // want `unfenced write \(in Credit\) under a TTL lock`
	}
	return nil
}

// A bool and a count say who won as well.
func (s *Service) Ship(ctx context.Context, id, seat int64) error {
	token, ok := s.lock(ctx, "lock:order")
	if !ok {
		return nil
	}
	defer s.unlock(ctx, "lock:order", token)
	if shipped, err := s.orders.TryShip(ctx, id); err != nil || !shipped {
		return err
	}
	if err := s.orders.Credit(ctx, id, 5); err != nil {
		return err
	}
	n, err := s.orders.Hold(ctx, seat, token)
	if err != nil || n == 0 {
		return err
	}
	return s.orders.Credit(ctx, id, 1)
}

// A count compared with nothing decides nothing.
func (s *Service) HoldIgnored(ctx context.Context, id, seat int64) error {
	token, ok := s.lock(ctx, "lock:order")
	if !ok {
		return nil
	}
	defer s.unlock(ctx, "lock:order", token)
	s.orders.Hold(ctx, seat, token)    // want `result of the conditional write \(in Hold\) is ignored`
	return s.orders.Credit(ctx, id, 1) // want `unfenced write \(in Credit\) under a TTL lock`
}

// The claim's answer handed on, wrapped: the caller of PayWrapped decides.
func (s *Service) PayWrapped(ctx context.Context, id int64) error {
	token, ok := s.lock(ctx, "lock:order")
	if !ok {
		return nil
	}
	defer s.unlock(ctx, "lock:order", token)
	err := s.orders.MarkPaid(ctx, id)
	return fmt.Errorf("pay %d: %w", id, err)
}
