// Package gormdb holds gorm writes under a go-redis lock: raw Exec and the
// builder finishers.
package gormdb

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

var errStale = errors.New("stale: a newer holder won")

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

type Order struct {
	ID      int64
	Status  string
	Version int64
	Note    string
}

type Coupon struct {
	ID        int64
	Remaining int64
	UsedBy    int64
}

func execUnfenced(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	return db.Exec(`UPDATE orders SET status = ? WHERE id = ?`, "PAID", id).Error // want `unfenced write under a TTL lock`
}

func execConditional(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	res := db.Exec(`UPDATE orders SET status = ? WHERE id = ? AND status = ?`, "PAID", id, "PENDING")
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return errStale
	}
	return nil
}

func updateUnfenced(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	return db.WithContext(ctx).Model(&Order{}).Where("id = ?", id).Update("status", "SHIPPED").Error // want `unfenced write under a TTL lock`
}

func updateConditional(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	res := db.WithContext(ctx).Model(&Order{}).Where("id = ? AND status = ?", id, "PAID").Update("status", "SHIPPED")
	if res.Error == nil && res.RowsAffected == 0 {
		return errStale
	}
	return res.Error
}

func updatesUnfenced(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64, note string) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	return db.Model(&Order{}).Where("id = ?", id).Updates(map[string]any{"note": note, "status": "NOTED"}).Error // want `unfenced write under a TTL lock`
}

func updatesVersioned(ctx context.Context, rdb *redis.Client, db *gorm.DB, o *Order, note string) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	res := db.Model(&Order{}).Where("id = ? AND version = ?", o.ID, o.Version).
		Updates(map[string]any{"note": note, "version": gorm.Expr("version + 1")})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errStale
	}
	return nil
}

func updateColumnUnfenced(ctx context.Context, rdb *redis.Client, db *gorm.DB, id, user int64) error {
	token := lock(ctx, rdb, "lock:coupon")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:coupon", token)
	return db.Model(&Coupon{}).Where("id = ?", id).UpdateColumn("used_by", user).Error // want `unfenced write under a TTL lock`
}

func updateColumnConditional(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64) error {
	token := lock(ctx, rdb, "lock:coupon")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:coupon", token)
	res := db.Model(&Coupon{}).Where("id = ? AND remaining > ?", id, 0).UpdateColumn("remaining", gorm.Expr("remaining - ?", 1))
	if res.Error != nil || res.RowsAffected != 1 {
		return errStale
	}
	return nil
}

func createUnfenced(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	return db.Create(&Order{ID: id, Status: "NEW"}).Error // want `unfenced write under a TTL lock`
}

// An insert that does nothing when the row is there: a repeat is harmless.
func createIdempotent(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	return db.Clauses(clause.OnConflict{DoNothing: true}).Create(&Order{ID: id, Status: "NEW"}).Error
}

// Save writes every column of a Go value by its primary key: whatever the
// row holds now, a blind overwrite.
func saveBlind(ctx context.Context, rdb *redis.Client, db *gorm.DB, o *Order) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	o.Status = "PAID"
	return db.Save(o).Error // want `unfenced write under a TTL lock: after the lease expires it can overwrite`
}

// Updates of a struct by the model's primary key is as blind.
func updatesStructBlind(ctx context.Context, rdb *redis.Client, db *gorm.DB, o *Order) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	return db.Model(o).Updates(Order{Status: "PAID"}).Error // want `unfenced write under a TTL lock`
}

// With a WHERE of its own, the columns a struct sets may be the ones it
// pins: not judged.
func updatesStructWhere(ctx context.Context, rdb *redis.Client, db *gorm.DB, o *Order) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	res := db.Model(o).Where("status = ?", "NEW").Updates(Order{Status: "PAID"})
	if res.Error != nil || res.RowsAffected != 1 {
		return errStale
	}
	return nil
}

// A WHERE that names the row by its primary key alone pins none of the
// columns the struct writes: as blind as the model's own key.
func updatesStructByID(ctx context.Context, rdb *redis.Client, db *gorm.DB, o *Order) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	o.Status = "PAID"
	return db.Table("orders").Where("id = ?", o.ID).Updates(o).Error // want `unfenced write under a TTL lock`
}

// Deletes are not judged: repeating one is harmless.
func deleteNotJudged(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	return db.Where("status = ?", "CANCELLED").Delete(&Order{}, id).Error
}

// The WHERE put together from several Where calls, a map and a bare column.
func chainedWheres(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	if res := db.Model(&Order{}).Where("id = ?", id).Where("status = ?", "PENDING").Update("status", "PAID"); res.RowsAffected != 1 {
		return errStale
	}
	if res := db.Model(&Order{}).Where(map[string]any{"id": id, "status": "PAID"}).Update("status", "PACKED"); res.RowsAffected != 1 {
		return errStale
	}
	if res := db.Model(&Order{}).Where("id = ?", id).Where("status", "PACKED").Update("status", "SHIPPED"); res.RowsAffected != 1 {
		return errStale
	}
	return nil
}

// A model whose key gorm adds to the WHERE: nothing there tests the state.
func modelKeyOnly(ctx context.Context, rdb *redis.Client, db *gorm.DB, o *Order) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	return db.Model(o).Update("status", "PAID").Error // want `unfenced write under a TTL lock`
}

func beginTx(ctx context.Context, rdb *redis.Client, db *gorm.DB, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	tx := db.Begin()
	defer tx.Rollback()
	if err := tx.Model(&Order{}).Where("id = ?", id).UpdateColumns(map[string]any{"status": "PAID", "note": "batch"}).Error; err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	return tx.Commit().Error
}
