// Package early defers its release before it tests whether it got the lock:
// a caller that lost the race deletes the winner's lock on its way out.
package early

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

func work() {}

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Store's Unlock is a plain DEL, reported in it; what each call adds is
// reported at the call.
type Store struct{ rdb *redis.Client }

func (s *Store) Lock(ctx context.Context, key string) (bool, error) {
	return s.rdb.SetNX(ctx, key, uuid.NewString(), time.Minute).Result()
}

func (s *Store) Unlock(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, key).Err() // want `lock released with plain DEL`
}

func errorFirst(ctx context.Context, s *Store, id string) error {
	ok, err := s.Lock(ctx, "lock:"+id)
	if err != nil {
		return err
	}
	defer s.Unlock(ctx, "lock:"+id) // want `release \(Unlock\) deferred before the lock is checked: a caller that did not get it deletes the holder's`
	if !ok {
		return nil
	}
	work()
	return nil
}

func inClosure(ctx context.Context, s *Store, id string) {
	ok, _ := s.Lock(ctx, "lock:"+id)
	defer func() {
		s.Unlock(ctx, "lock:"+id) // want `release \(Unlock\) deferred before the lock is checked`
	}()
	if !ok {
		return
	}
	work()
}

func requeue(id string) {}

// A test of the flag that does not stop the work (the event is put back,
// then processed anyway) is still a test the release was deferred before.
func fallsThrough(ctx context.Context, s *Store, id string) error {
	b, err := s.Lock(ctx, "lock:"+id)
	if err != nil {
		return err
	}
	defer s.Unlock(ctx, "lock:"+id) // want `release \(Unlock\) deferred before the lock is checked`
	if !b {
		requeue(id)
	}
	work()
	return nil
}

// A direct plain DEL: the plain DEL's finding and fix say it.
func direct(ctx context.Context, rdb *redis.Client, id string) {
	ok, err := rdb.SetNX(ctx, "lock:"+id, uuid.NewString(), time.Minute).Result()
	defer rdb.Del(ctx, "lock:"+id) // want `lock released with plain DEL`
	if err != nil || !ok {
		return
	}
	work()
}

// Silent: the release deferred after the check, a later test of the
// result that is no gate, and a compare-and-delete, which a loser's token
// cannot match.

func afterCheck(ctx context.Context, s *Store, id string) error {
	ok, err := s.Lock(ctx, "lock:"+id)
	if err != nil || !ok {
		return err
	}
	defer s.Unlock(ctx, "lock:"+id)
	if ok {
		work()
	}
	return nil
}

func ownerChecked(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Result()
	defer unlock.Run(ctx, rdb, []string{"lock:" + id}, token)
	if err != nil || !ok {
		return
	}
	work()
}
