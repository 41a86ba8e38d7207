// Package onfailure releases the lock on the path where it was not
// acquired: the lock it deletes is the holder's.
package onfailure

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

func work() {}

var errHeld = errors.New("held")

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Store's Unlock is a plain DEL, reported in it; a call on the failure
// path adds its own finding.
type Store struct{ rdb *redis.Client }

func (s *Store) Lock(ctx context.Context, key string) error {
	ok, err := s.rdb.SetNX(ctx, key, uuid.NewString(), time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errHeld
	}
	return nil
}

func (s *Store) TryLock(ctx context.Context, key string) (bool, error) {
	return s.rdb.SetNX(ctx, key, uuid.NewString(), time.Minute).Result()
}

func (s *Store) Unlock(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, key).Err() // want `lock released with plain DEL`
}

func loop(ctx context.Context, s *Store, ids []string) {
	for _, id := range ids {
		if err := s.Lock(ctx, "lock:"+id); err != nil {
			s.Unlock(ctx, "lock:"+id) // want `release \(Unlock\) where the lock was not acquired: it deletes the holder's lock; leave without releasing`
			continue
		}
		work()
		s.Unlock(ctx, "lock:"+id)
	}
}

func notWon(ctx context.Context, s *Store, id string) error {
	ok, err := s.TryLock(ctx, "lock:"+id)
	if err != nil {
		return err
	}
	if !ok {
		_ = s.Unlock(ctx, "lock:"+id) // want `release \(Unlock\) where the lock was not acquired`
		return nil
	}
	defer s.Unlock(ctx, "lock:"+id)
	work()
	return nil
}

// Silent: a compare-and-delete on the failure path, which the loser's token
// cannot match; a release after a failed write, with the lock held; and an
// error of the flag-returning call, after which the key may have been set.

func ownerChecked(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Result()
	if err != nil || !ok {
		unlock.Run(ctx, rdb, []string{"lock:" + id}, token)
		return
	}
	work()
	unlock.Run(ctx, rdb, []string{"lock:" + id}, token)
}

func afterWork(ctx context.Context, s *Store, id string, write func() error) error {
	if err := s.Lock(ctx, "lock:"+id); err != nil {
		return err
	}
	if err := write(); err != nil {
		s.Unlock(ctx, "lock:"+id)
		return err
	}
	return s.Unlock(ctx, "lock:"+id)
}

func transportError(ctx context.Context, s *Store, id string) error {
	ok, err := s.TryLock(ctx, "lock:"+id)
	if err != nil {
		s.Unlock(ctx, "lock:"+id)
		return err
	}
	if !ok {
		return nil
	}
	defer s.Unlock(ctx, "lock:"+id)
	work()
	return nil
}

// A claim that, when taken, reads the value it found and deletes it only
// when it is corrupt, to claim again: a takeover of what it inspected, not
// a release of a lock it holds. Silent.
func claim(ctx context.Context, rdb *redis.Client, key, marker string) (string, error) {
	for {
		ok, err := rdb.SetNX(ctx, key, marker, time.Minute).Result()
		if err != nil {
			return "", err
		}
		if ok {
			return "", nil
		}
		val, err := rdb.Get(ctx, key).Result()
		if err != nil {
			return "", err
		}
		if len(val) < 8 {
			rdb.Del(ctx, key)
			continue
		}
		return val, nil
	}
}
