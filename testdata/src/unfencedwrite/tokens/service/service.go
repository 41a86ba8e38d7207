// Package service writes under locks with tokens of every provenance: only a
// token issued atomically with the lock's grant fences a write, compared with
// the operand that carries it and stored by the same write.
package service

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/google/uuid"
	goredis "github.com/redis/go-redis/v9"
	"go.etcd.io/etcd/client/v3/concurrency"

	"testcases/unfencedwrite/tokens/fencer"
	"testcases/unfencedwrite/tokens/orders"
)

var errBusy = fencer.ErrBusy

var release = goredis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func checked(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return orders.ErrStale
	}
	return nil
}

// Tokens from a lock wrapper in another package, known by its fact.

func wrapperGranted(ctx context.Context, f *fencer.Fencer, db *sql.DB, id int64) error {
	owner := uuid.NewString()
	token, err := f.Acquire(ctx, "order", owner)
	if err != nil {
		return err
	}
	defer f.Release(ctx, "order", owner)
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, token))
}

func wrapperSeparate(ctx context.Context, f *fencer.Fencer, db *sql.DB, id int64) error {
	owner := uuid.NewString()
	token, err := f.AcquireThenCount(ctx, "order", owner)
	if err != nil {
		return err
	}
	defer f.Release(ctx, "order", owner)
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, token)) // want `write to orders compares fencing_token with an AcquireThenCount taken after the lock, which is not a fencing token`
}

// The token handed to a repository method, whose write binds it.

func repoGranted(ctx context.Context, f *fencer.Fencer, repo *orders.Repo, id int64) error {
	owner := uuid.NewString()
	token, err := f.Acquire(ctx, "order", owner)
	if err != nil {
		return err
	}
	defer f.Release(ctx, "order", owner)
	return repo.CompleteFenced(ctx, id, token)
}

func repoSeparate(ctx context.Context, f *fencer.Fencer, repo *orders.Repo, id int64) error {
	owner := uuid.NewString()
	token, err := f.AcquireThenCount(ctx, "order", owner)
	if err != nil {
		return err
	}
	defer f.Release(ctx, "order", owner)
	return repo.CompleteFenced(ctx, id, token) // want `write \(in CompleteFenced\) to orders compares fencing_token with an AcquireThenCount taken after the lock`
}

func repoFresh(ctx context.Context, rdb *goredis.Client, repo *orders.Repo, id int64) error {
	owner := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:order", owner, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{"lock:order"}, owner)
	return repo.CompleteFenced(ctx, id, time.Now().UnixNano()) // want `write \(in CompleteFenced\) to orders compares fencing_token with time.Time.UnixNano, which is not a fencing token: it is not issued with the lock`
}

// Values that are no token, with a lock taken directly.

func lockDirect(ctx context.Context, rdb *goredis.Client, owner string) bool {
	ok, err := rdb.SetNX(ctx, "lock:order", owner, 10*time.Second).Result()
	return err == nil && ok
}

func uuidToken(ctx context.Context, rdb *goredis.Client, db *sql.DB, id int64) error {
	owner := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:order", owner, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{"lock:order"}, owner)
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, uuid.NewString())) // want `write to orders compares fencing_token with uuid.NewString, which is not a fencing token: it is not issued with the lock; use the token the lock's grant returns`
}

func ownerToken(ctx context.Context, rdb *goredis.Client, db *sql.DB, id int64) error {
	owner := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:order", owner, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{"lock:order"}, owner)
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, owner)) // want `write to orders compares fencing_token with the lock's value, which is not a fencing token`
}

func callerToken(ctx context.Context, rdb *goredis.Client, db *sql.DB, id, token int64) error {
	owner := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:order", owner, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{"lock:order"}, owner)
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, token)) // want `write to orders compares fencing_token with token, a parameter, which is not a fencing token: this lock's grant did not issue it`
}

// The INCR in its own round trip after the SETNX, the subtle one.
func incrAfter(ctx context.Context, rdb *goredis.Client, db *sql.DB, id int64) error {
	owner := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:order", owner, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{"lock:order"}, owner)
	token := rdb.Incr(ctx, "fence:order").Val()
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, token)) // want `write to orders compares fencing_token with an INCR taken after the lock, which is not a fencing token: a holder that pauses before it draws a newer token than its successor's`
}

// The write compares the column with the order id, not with the token it
// stores.
func wrongOperand(ctx context.Context, f *fencer.Fencer, db *sql.DB, id int64) error {
	owner := uuid.NewString()
	token, err := f.Acquire(ctx, "order", owner)
	if err != nil {
		return err
	}
	defer f.Release(ctx, "order", owner)
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $1 WHERE id = $2 AND fencing_token < $2`, token, id)) // want `write to orders compares fencing_token with \$2, not with the token it stores \(\$1\): a stale token can pass; compare and store the same token`
}

// The write compares the token but never records it.
func neverStored(ctx context.Context, f *fencer.Fencer, db *sql.DB, id int64) error {
	owner := uuid.NewString()
	token, err := f.Acquire(ctx, "order", owner)
	if err != nil {
		return err
	}
	defer f.Release(ctx, "order", owner)
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE' WHERE id = $1 AND fencing_token < $2`, id, token)) // want `write to orders compares fencing_token but never stores it: a newer holder's token is never recorded, so a stale one passes too; store the token it compares \(SET fencing_token = \$2\)`
}

// Tokens issued with the grant, in other spellings: as a string, from etcd,
// from redigo's EVAL through its converter.

func grantedAsString(ctx context.Context, f *fencer.Fencer, db *sql.DB, id int64) error {
	owner := uuid.NewString()
	token, err := f.Acquire(ctx, "order", owner)
	if err != nil {
		return err
	}
	defer f.Release(ctx, "order", owner)
	t := strconv.FormatInt(token, 10)
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, t))
}

func etcdRevision(ctx context.Context, s *concurrency.Session, db *sql.DB, id int64) error {
	m := concurrency.NewMutex(s, "/order")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, m.Header().GetRevision()))
}

const acquireScript = `if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return redis.call("incr", KEYS[2]) end return 0`

func redigoEval(c redis.Conn, db *sql.DB, id int64) error {
	owner := uuid.NewString()
	token, err := redis.Int64(c.Do("EVAL", acquireScript, 2, "lock:order", "fence:order", owner, 10000))
	if err != nil || token == 0 {
		return errBusy
	}
	defer c.Do("EVAL", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`, 1, "lock:order", owner)
	return checked(db.ExecContext(context.Background(), `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, token))
}

// A token lockvet cannot trace (kept in a struct) is judged a token.
type lease struct{ token int64 }

func untraced(ctx context.Context, rdb *goredis.Client, db *sql.DB, l *lease, id int64) error {
	owner := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:order", owner, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{"lock:order"}, owner)
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, l.token))
}

// A compare-and-set on the row's state needs no token: the uuid is beside
// the point.
func stateToo(ctx context.Context, rdb *goredis.Client, db *sql.DB, id int64) error {
	owner := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:order", owner, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer release.Run(ctx, rdb, []string{"lock:order"}, owner)
	return checked(db.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND status = 'PAID' AND fencing_token < $2`, id, uuid.NewString()))
}
