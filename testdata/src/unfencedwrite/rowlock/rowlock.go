// Package rowlock holds writes made in a transaction that first locked the
// row with SELECT … FOR UPDATE: the database serializes them. A FOR UPDATE
// run outside the transaction locks nothing the write is made under.
package rowlock

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	"github.com/zeromicro/go-zero/core/stores/sqlx"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

var errBusy = errors.New("busy")

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func lock(ctx context.Context, rdb *redis.Client, key string) string {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return ""
	}
	return token
}

func unlock(ctx context.Context, rdb *redis.Client, key, token string) {
	unlockScript.Run(ctx, rdb, []string{key}, token)
}

type Account struct {
	ID      int64
	Balance int64
}

func stdTx(ctx context.Context, rdb *redis.Client, db *sql.DB, id, amount int64) error {
	owner := lock(ctx, rdb, "lock:account")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:account", owner)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`, id).Scan(&balance); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1`, id, balance+amount); err != nil {
		return err
	}
	return tx.Commit()
}

// The row is locked on the pool, outside the transaction that writes.
func stdLockedElsewhere(ctx context.Context, rdb *redis.Client, db *sql.DB, id, amount int64) error {
	owner := lock(ctx, rdb, "lock:account")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:account", owner)
	var balance int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`, id).Scan(&balance); err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1`, id, balance+amount); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	return tx.Commit()
}

func pgxTx(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id, amount int64) error {
	owner := lock(ctx, rdb, "lock:account")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:account", owner)
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var balance int64
	if err := tx.QueryRow(ctx, `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`, id).Scan(&balance); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1`, id, balance+amount); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// The SELECT reads without locking: the transaction serializes nothing.
func pgxTxNoLock(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id, amount int64) error {
	owner := lock(ctx, rdb, "lock:account")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:account", owner)
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var balance int64
	if err := tx.QueryRow(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&balance); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1`, id, balance+amount); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	return tx.Commit(ctx)
}

func gormTx(ctx context.Context, rdb *redis.Client, db *gorm.DB, id, amount int64) error {
	owner := lock(ctx, rdb, "lock:account")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:account", owner)
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var acct Account
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&acct, id).Error; err != nil {
			return err
		}
		return tx.Model(&acct).Update("balance", acct.Balance+amount).Error
	})
}

// The callback's tx locks nothing before it writes.
func gormTxNoLock(ctx context.Context, rdb *redis.Client, db *gorm.DB, id, amount int64) error {
	owner := lock(ctx, rdb, "lock:account")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:account", owner)
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var acct Account
		if err := tx.First(&acct, id).Error; err != nil {
			return err
		}
		return tx.Model(&acct).Update("balance", acct.Balance+amount).Error // want `unfenced write under a TTL lock`
	})
}

type Purse struct {
	ID      int64
	Balance int64
}

// debitPurse is a repository method that locks the row on the handle it is
// given, then writes it: serialized when that handle is a transaction.
func debitPurse(db *gorm.DB, id, amount int64) error {
	var p Purse
	if err := db.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Take(&p).Error; err != nil {
		return err
	}
	return db.Model(&Purse{}).Where("id = ?", id).Update("balance", p.Balance-amount).Error
}

// chargeVia hands it the transaction the region opened, and elsewhere the
// plain handle, whose row lock ends with its own statement.
func chargeVia(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64) error {
	token := lock(ctx, rdb, "lock:purse")
	if token == "" {
		return errBusy
	}
	defer unlockScript.Run(ctx, rdb, []string{"lock:purse"}, token)
	if err := db.Transaction(func(tx *gorm.DB) error { return debitPurse(tx, id, 5) }); err != nil {
		return err
	}
	return debitPurse(db, id, 5) // want `unfenced write \(in debitPurse\) under a TTL lock`
}

// go-zero's TransactCtx hands its callback the transaction's Session.
func goZeroTx(ctx context.Context, rdb *redis.Client, conn sqlx.SqlConn, id, amount int64) error {
	owner := lock(ctx, rdb, "lock:account")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:account", owner)
	return conn.TransactCtx(ctx, func(ctx context.Context, session sqlx.Session) error {
		var balance int64
		if err := session.QueryRowCtx(ctx, &balance, `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`, id); err != nil {
			return err
		}
		_, err := session.ExecCtx(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1`, id, balance+amount)
		return err
	})
}

func goZeroNoRowLock(ctx context.Context, rdb *redis.Client, conn sqlx.SqlConn, id, amount int64) error {
	owner := lock(ctx, rdb, "lock:account")
	if owner == "" {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:account", owner)
	return conn.TransactCtx(ctx, func(ctx context.Context, session sqlx.Session) error {
		var balance int64
		if err := session.QueryRowCtx(ctx, &balance, `SELECT balance FROM accounts WHERE id = $1`, id); err != nil {
			return err
		}
		_, err := session.ExecCtx(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1`, id, balance+amount) // want `unfenced write under a TTL lock`
		return err
	})
}
