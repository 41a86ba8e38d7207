// Package cas holds writes under a lock whose WHERE tests what they change:
// silent when it pins the prior state (a compare-and-set), reported when it
// only tests it (a lost update).
package cas

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

type svc struct {
	rdb *redis.Client
	db  *sql.DB
}

func (s *svc) lock(ctx context.Context, key string) (string, bool) {
	token := uuid.NewString()
	ok, err := s.rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	return token, err == nil && ok
}

func (s *svc) unlock(ctx context.Context, key, token string) {
	unlockScript.Run(ctx, s.rdb, []string{key}, token)
}

func changed(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errBusy
	}
	return nil
}

// Read the balance, compute the new one in Go, write it back behind a range
// guard: a paused holder overwrites the newer balance.
func (s *svc) debitLost(ctx context.Context, id, amount int64) error {
	token, ok := s.lock(ctx, "lock:account")
	if !ok {
		return errBusy
	}
	defer s.unlock(ctx, "lock:account", token)
	var balance int64
	if err := s.db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&balance); err != nil {
		return err
	}
	return changed(s.db.ExecContext(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1 AND balance >= 0`, id, balance-amount)) // want `write to accounts tests balance \(balance >= 0\) but does not pin the value it replaces: after the lease expires it can overwrite a newer holder's balance; compare with the value read \(AND balance = \$old\) or change it relatively`
}

// The same, pinning the value it read: a compare-and-set.
func (s *svc) debitPinned(ctx context.Context, id, amount int64) error {
	token, ok := s.lock(ctx, "lock:account")
	if !ok {
		return errBusy
	}
	defer s.unlock(ctx, "lock:account", token)
	var balance int64
	if err := s.db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&balance); err != nil {
		return err
	}
	return changed(s.db.ExecContext(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1 AND balance = $3`, id, balance-amount, balance))
}

// A relative change guarded by its own delta.
func (s *svc) debitRelative(ctx context.Context, id, amount int64) error {
	token, ok := s.lock(ctx, "lock:account")
	if !ok {
		return errBusy
	}
	defer s.unlock(ctx, "lock:account", token)
	return changed(s.db.ExecContext(ctx, `UPDATE accounts SET balance = balance - $2 WHERE id = $1 AND balance >= $2`, id, amount))
}

// A relative change whose guard is not its delta: the balance can go below
// zero, and a repeat debits twice.
func (s *svc) debitLooseGuard(ctx context.Context, id, amount int64) error {
	token, ok := s.lock(ctx, "lock:account")
	if !ok {
		return errBusy
	}
	defer s.unlock(ctx, "lock:account", token)
	return changed(s.db.ExecContext(ctx, `UPDATE accounts SET balance = balance - $2 WHERE id = $1 AND balance >= 0`, id, amount)) // want `write to accounts tests balance \(balance >= 0\) but does not pin the value it replaces: .*; guard the change with its own delta`
}

// A guard that lets the write repeat: a second holder finds the order still
// not cancelled.
func (s *svc) payNotCancelled(ctx context.Context, id int64) error {
	token, ok := s.lock(ctx, "lock:order")
	if !ok {
		return errBusy
	}
	defer s.unlock(ctx, "lock:order", token)
	return changed(s.db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status <> 'CANCELLED'`, id)) // want `write to orders tests status \(status <> 'CANCELLED'\) but does not pin the value it replaces: .*; compare with the state it expects`
}

// Silent: the state machines and orderings that are really safe.

func (s *svc) stateMachine(ctx context.Context, id int64) error {
	token, ok := s.lock(ctx, "lock:order")
	if !ok {
		return errBusy
	}
	defer s.unlock(ctx, "lock:order", token)
	if err := changed(s.db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status IN ('PENDING', 'RETRY')`, id)); err != nil {
		return err
	}
	if err := changed(s.db.ExecContext(ctx, `UPDATE shipments SET state = 'QUEUED' WHERE order_id = $1 AND state <> 'QUEUED'`, id)); err != nil {
		return err
	}
	return changed(s.db.ExecContext(ctx, `UPDATE seats SET holder = $2 WHERE id = $1 AND holder IS NULL`, id, token))
}

func (s *svc) versioned(ctx context.Context, id, version int64, body string) error {
	token, ok := s.lock(ctx, "lock:doc")
	if !ok {
		return errBusy
	}
	defer s.unlock(ctx, "lock:doc", token)
	if err := changed(s.db.ExecContext(ctx, `UPDATE documents SET body = $2, version = version + 1 WHERE id = $1 AND version = $3`, id, body, version)); err != nil {
		return err
	}
	return changed(s.db.ExecContext(ctx, `UPDATE snapshots SET body = $2, version = $3 WHERE id = $1 AND version < $3`, id, body, version))
}

func (s *svc) leaseTaken(ctx context.Context, id int64, until time.Time) error {
	token, ok := s.lock(ctx, "lock:job")
	if !ok {
		return errBusy
	}
	defer s.unlock(ctx, "lock:job", token)
	return changed(s.db.ExecContext(ctx, `UPDATE jobs SET locked_until = $2 WHERE id = $1 AND locked_until < now()`, id, until))
}

func (s *svc) insertOnce(ctx context.Context, id int64) error {
	token, ok := s.lock(ctx, "lock:credit")
	if !ok {
		return errBusy
	}
	defer s.unlock(ctx, "lock:credit", token)
	_, err := s.db.ExecContext(ctx, `INSERT INTO credits (order_id) VALUES ($1) ON CONFLICT DO NOTHING`, id)
	return err
}

func (s *svc) rowLocked(ctx context.Context, id, amount int64) error {
	token, ok := s.lock(ctx, "lock:account")
	if !ok {
		return errBusy
	}
	defer s.unlock(ctx, "lock:account", token)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`, id).Scan(&balance); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1`, id, balance-amount); err != nil {
		return err
	}
	return tx.Commit()
}
