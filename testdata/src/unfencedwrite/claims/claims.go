// Package claims holds writes that a conditional write lets only one caller
// make: they run only on the branch where it changed a row, or before it in a
// transaction the loser does not commit. A write the claim does not gate is
// reported as ever.
package claims

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	"gorm.io/gorm"
)

var errTaken = errors.New("someone else completed it")

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

// The points are credited only by the caller whose UPDATE found the order
// pending.
func claimThenCredit(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64, points int) error {
	owner := lock(ctx, rdb, "lock:order")
	if owner == "" {
		return errTaken
	}
	defer unlock(ctx, rdb, "lock:order", owner)
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errTaken
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET points = points + $1 WHERE id = $2`, points, id)
	return err
}

// Credited first, in the transaction that the claim's loser rolls back.
func creditThenClaimInTx(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64, points int) error {
	owner := lock(ctx, rdb, "lock:order")
	if owner == "" {
		return errTaken
	}
	defer unlock(ctx, rdb, "lock:order", owner)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET points = points + $1 WHERE id = $2`, points, id); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errTaken
	}
	return tx.Commit()
}

// Credited first and outside any transaction: the credit stands whoever wins.
func creditThenClaim(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64, points int) error {
	owner := lock(ctx, rdb, "lock:order")
	if owner == "" {
		return errTaken
	}
	defer unlock(ctx, rdb, "lock:order", owner)
	if _, err := db.ExecContext(ctx, `UPDATE accounts SET points = points + $1 WHERE id = $2`, points, id); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errTaken
	}
	return nil
}

// The count is only logged: winner and loser both credit.
func claimLogged(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64, points int) error {
	owner := lock(ctx, rdb, "lock:order")
	if owner == "" {
		return errTaken
	}
	defer unlock(ctx, rdb, "lock:order", owner)
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		log.Printf("order %d was already paid", id)
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET points = points + $1 WHERE id = $2`, points, id) // want `unfenced write under a TTL lock`
	return err
}

// The loser's branch writes: that is the one a paused holder takes.
func loserWrites(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	owner := lock(ctx, rdb, "lock:order")
	if owner == "" {
		return errTaken
	}
	defer unlock(ctx, rdb, "lock:order", owner)
	res, err := db.ExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 0 {
		return nil
	}
	_, err = db.ExecContext(ctx, `UPDATE orders SET note = 'paid twice' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

// An idempotent insert as the claim, its count read from pgx's CommandTag.
func insertClaim(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id int64, points int) error {
	owner := lock(ctx, rdb, "lock:order")
	if owner == "" {
		return errTaken
	}
	defer unlock(ctx, rdb, "lock:order", owner)
	tag, err := pool.Exec(ctx, `INSERT INTO credited (order_id) VALUES ($1) ON CONFLICT DO NOTHING`, id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 1 {
		_, err = pool.Exec(ctx, `UPDATE accounts SET points = points + $1 WHERE id = $2`, points, id)
	}
	return err
}

type Order struct {
	ID      int64
	Status  string
	Version int64
}

// restoreStock takes the transaction it writes in.
func restoreStock(tx *gorm.DB, sku int64, qty int) error {
	return tx.Exec(`UPDATE skus SET stock = stock + ? WHERE id = ?`, qty, sku).Error
}

func writeLog(tx *gorm.DB, id int64) error {
	return tx.Exec(`INSERT INTO order_log (order_id) VALUES (?)`, id).Error
}

// gorm, optimistic: the stock restored before the versioned update and the
// log written after it commit only with it.
func cancelVersioned(ctx context.Context, rdb *redis.Client, db *gorm.DB, o Order, sku int64, qty int) error {
	owner := lock(ctx, rdb, "lock:order")
	if owner == "" {
		return errTaken
	}
	defer unlock(ctx, rdb, "lock:order", owner)
	tx := db.Begin()
	if err := restoreStock(tx, sku, qty); err != nil {
		tx.Rollback()
		return err
	}
	result := tx.Model(&o).Where("id = ? AND version = ?", o.ID, o.Version).
		Updates(map[string]any{"status": "CANCELLED", "version": o.Version + 1})
	if result.Error != nil {
		tx.Rollback()
		return result.Error
	}
	if result.RowsAffected == 0 {
		tx.Rollback()
		return errTaken
	}
	if err := writeLog(tx, o.ID); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit().Error
}

// The stock is restored on the pool, outside the versioned transaction.
func cancelOutsideTx(ctx context.Context, rdb *redis.Client, db *gorm.DB, o Order, sku int64, qty int) error {
	owner := lock(ctx, rdb, "lock:order")
	if owner == "" {
		return errTaken
	}
	defer unlock(ctx, rdb, "lock:order", owner)
	if err := restoreStock(db, sku, qty); err != nil { // want `unfenced write \(in restoreStock\) under a TTL lock`
		return err
	}
	tx := db.Begin()
	result := tx.Model(&o).Where("id = ? AND version = ?", o.ID, o.Version).
		Updates(map[string]any{"status": "CANCELLED", "version": o.Version + 1})
	if result.Error != nil || result.RowsAffected == 0 {
		tx.Rollback()
		return errTaken
	}
	return tx.Commit().Error
}

// A row locked with FOR UPDATE, then written by a function given the
// transaction.
func lockedThenCallee(ctx context.Context, rdb *redis.Client, db *gorm.DB, sku int64, qty int) error {
	owner := lock(ctx, rdb, "lock:sku")
	if owner == "" {
		return errTaken
	}
	defer unlock(ctx, rdb, "lock:sku", owner)
	tx := db.Begin()
	var stock int
	if err := tx.Raw(`SELECT stock FROM skus WHERE id = ? FOR UPDATE`, sku).Scan(&stock).Error; err != nil {
		tx.Rollback()
		return err
	}
	if err := restoreStock(tx, sku, qty); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit().Error
}
