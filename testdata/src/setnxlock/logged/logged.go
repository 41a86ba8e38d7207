// Package logged tests a lock's failure and only logs it: the work runs
// whether or not the lock was taken. A failure that returns, skips, retries or
// ends the process gates the work.
package logged

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"time"

	"github.com/bsm/redislock"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

var errLocked = errors.New("locked")

type locker struct{ rdb *redis.Client }

// lock takes the lock with a unique token; it fails when another holder has it.
func (l *locker) lock(ctx context.Context, key string) (string, error) {
	token := uuid.NewString()
	ok, err := l.rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errLocked
	}
	return token, nil
}

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func (l *locker) unlock(ctx context.Context, key, token string) {
	_ = unlockScript.Run(ctx, l.rdb, []string{key}, token).Err()
}

func work() {}

// Logger is an in-house logger: its levels only log.
type Logger interface {
	Errorf(format string, args ...any)
}

func Logs(ctx context.Context, l *locker, id string) {
	token, err := l.lock(ctx, "lock:order:"+id) // want `lock failure does not stop the work: it runs whether or not the lock was taken; return when it was not acquired`
	if err != nil {
		log.Printf("lock %s: %v", id, err)
	}
	work()
	l.unlock(ctx, "lock:order:"+id, token)
}

// The release is deferred only when the lock was taken; the work runs either way.
func LogsElseDefers(ctx context.Context, l *locker, lg Logger, id string) {
	if token, err := l.lock(ctx, "lock:job:"+id); err != nil { // want `lock failure does not stop the work`
		lg.Errorf("lock job %s: %v", id, err)
	} else {
		defer l.unlock(ctx, "lock:job:"+id, token)
	}
	work()
}

func LogsNotAcquired(ctx context.Context, rdb *redis.Client, id string) error {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:pay:"+id, token, 10*time.Second).Result() // want `lock failure does not stop the work`
	if err != nil {
		return err
	}
	if !ok {
		slog.Warn("payment locked elsewhere", "id", id)
	}
	work()
	return unlockScript.Run(ctx, rdb, []string{"lock:pay:" + id}, token).Err()
}

// Looks alike, and gates the work.

func Returns(ctx context.Context, l *locker, id string) error {
	token, err := l.lock(ctx, "lock:order:"+id)
	if err != nil {
		log.Printf("lock %s: %v", id, err)
		return err
	}
	defer l.unlock(ctx, "lock:order:"+id, token)
	work()
	return nil
}

func Fatal(ctx context.Context, l *locker, id string) {
	token, err := l.lock(ctx, "lock:boot:"+id)
	if err != nil {
		log.Fatalf("lock %s: %v", id, err)
	}
	defer l.unlock(ctx, "lock:boot:"+id, token)
	work()
}

func Skips(ctx context.Context, l *locker, ids []string) {
	for _, id := range ids {
		token, err := l.lock(ctx, "lock:item:"+id)
		if err != nil {
			log.Printf("skip %s: %v", id, err)
			continue
		}
		work()
		l.unlock(ctx, "lock:item:"+id, token)
	}
}

func Retries(ctx context.Context, l *locker, id string) {
	var token string
	for {
		var err error
		if token, err = l.lock(ctx, "lock:retry:"+id); err == nil {
			break
		}
		log.Printf("retry %s: %v", id, err)
		time.Sleep(100 * time.Millisecond)
	}
	work()
	l.unlock(ctx, "lock:retry:"+id, token)
}

// A flag set on failure decides later whether the work runs.
func Flags(ctx context.Context, l *locker, id string) {
	held := true
	token, err := l.lock(ctx, "lock:flag:"+id)
	if err != nil {
		log.Printf("lock %s: %v", id, err)
		held = false
	}
	if held {
		work()
		l.unlock(ctx, "lock:flag:"+id, token)
	}
}

// The token a wrapper returns is handed to the release: that tests nothing.
func HandsTokenOn(ctx context.Context, l *locker, id string) {
	token, _ := l.lock(ctx, "lock:hand:"+id) // want `lock result ignored`
	work()
	l.unlock(ctx, "lock:hand:"+id, token)
}

// An empty token is how this caller learns that the lock was not taken.
func TestsToken(ctx context.Context, l *locker, id string) {
	token, _ := l.lock(ctx, "lock:test:"+id)
	if token == "" {
		return
	}
	defer l.unlock(ctx, "lock:test:"+id, token)
	work()
}

// Nothing runs after the test: there is no work the lock fails to stop.
func DefersOnly(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	if rdb.SetNX(ctx, "lock:end:"+id, token, 10*time.Second).Val() {
		defer unlockScript.Run(ctx, rdb, []string{"lock:end:" + id}, token)
	}
}

// The release is deferred when the lock was taken; the work runs either way.
func DefersThenWorks(ctx context.Context, rdb *redis.Client, id string) {
	token := uuid.NewString()
	if rdb.SetNX(ctx, "lock:both:"+id, token, 10*time.Second).Val() { // want `lock failure does not stop the work`
		defer unlockScript.Run(ctx, rdb, []string{"lock:both:" + id}, token)
	}
	work()
}

// NotObtainedLogged tells bsm/redislock's not-obtained error apart and only
// prints it: the work runs without the lock whenever another holder has it.
func NotObtainedLogged(ctx context.Context, rdb *redis.Client, id string) {
	lock, err := redislock.New(rdb).Obtain(ctx, "lock:"+id, time.Second, nil) // want `lock failure does not stop the work`
	switch {
	case errors.Is(err, redislock.ErrNotObtained):
		fmt.Println("could not obtain lock")
	case err != nil:
		log.Fatalln(err)
	default:
		defer lock.Release(ctx)
	}
	work()
}

// NotObtainedReturns returns on it: gated.
func NotObtainedReturns(ctx context.Context, rdb *redis.Client, id string) error {
	lock, err := redislock.New(rdb).Obtain(ctx, "lock:"+id, time.Second, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		fmt.Println("busy")
		return nil
	}
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	work()
	return nil
}

// Requeues does something else than log when the lock is busy, then falls
// through into the work all the same.
func Requeues(ctx context.Context, rdb *redis.Client, id string, requeue func(string) error) error {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:event:"+id, token, 10*time.Second).Result() // want `lock failure does not stop the work`
	if err != nil {
		return err
	}
	if !ok {
		if err := requeue(id); err != nil {
			return err
		}
	}
	work()
	return unlockScript.Run(ctx, rdb, []string{"lock:event:" + id}, token).Err()
}

// RequeuesAndReturns leaves after requeueing: gated.
func RequeuesAndReturns(ctx context.Context, rdb *redis.Client, id string, requeue func(string) error) error {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:event:"+id, token, 10*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return requeue(id)
	}
	work()
	return unlockScript.Run(ctx, rdb, []string{"lock:event:" + id}, token).Err()
}

// RetriesOnce takes the lock again when it was busy: the flag decides.
func RetriesOnce(ctx context.Context, rdb *redis.Client, id string, wait func()) error {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:event:"+id, token, 10*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		wait()
		ok = rdb.SetNX(ctx, "lock:event:"+id, token, 10*time.Second).Val()
	}
	if !ok {
		return nil
	}
	work()
	return unlockScript.Run(ctx, rdb, []string{"lock:event:" + id}, token).Err()
}

// tryLock is a wrapper that reports both how it failed and whether it got
// the lock.
func tryLock(ctx context.Context, rdb *redis.Client, key string) (bool, error) {
	return rdb.SetNX(ctx, key, uuid.NewString(), 10*time.Second).Result()
}

// ErrorReturnsBusyRequeues returns on an error, but when the lock is busy
// only requeues and goes on.
func ErrorReturnsBusyRequeues(ctx context.Context, rdb *redis.Client, id string, requeue func(string) error) error {
	b, err := tryLock(ctx, rdb, "lock:hook:"+id) // want `lock failure does not stop the work`
	if err != nil {
		return err
	}
	defer unlockScript.Run(ctx, rdb, []string{"lock:hook:" + id}, id)
	if !b {
		if err := requeue(id); err != nil {
			return err
		}
	}
	work()
	return nil
}

// tryLockTimeout retries until its deadline, logging each miss; it returns
// only once it holds the lock, or fails. The miss that only logs is on the
// way back round the loop, and the error's test leads there too: it gates,
// and tryLockTimeout is no wrapper that drops the result (silent).
func tryLockTimeout(ctx context.Context, rdb *redis.Client, key string, timeout time.Duration) (bool, error) {
	start := time.Now()
	for time.Since(start) < timeout {
		if ok, err := tryLock(ctx, rdb, key); !ok || err != nil {
			log.Printf("key %s locked, retrying", key)
		} else {
			return true, nil
		}
		time.Sleep(70 * time.Millisecond)
	}
	return false, errors.New("lock timeout")
}

func RetriesUntilDeadline(ctx context.Context, rdb *redis.Client, id string) error {
	ok, err := tryLockTimeout(ctx, rdb, "lock:order:"+id, 8*time.Second)
	if err != nil || !ok {
		return err
	}
	defer unlockScript.Run(ctx, rdb, []string{"lock:order:" + id}, id)
	work()
	return nil
}

// tryAcquire retries a busy lock a few times and returns nil only once an
// attempt won: the failure side of the first test re-acquires, it does not
// fall through.
func tryAcquire(l *zredis.RedisLock) error {
	ok, err := l.Acquire()
	if err != nil {
		return err
	}
	if !ok {
		for count := 0; ; count++ {
			if count > 3 {
				return errors.New("the lock is busy, retry later")
			}
			if ok, err = l.Acquire(); err != nil {
				return err
			}
			if ok {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return nil
}

func RetriesInWrapper(store *zredis.Redis, id string) error {
	l := zredis.NewRedisLock(store, "lock:prove:"+id)
	if err := tryAcquire(l); err != nil {
		return err
	}
	defer l.Release()
	work()
	return nil
}
