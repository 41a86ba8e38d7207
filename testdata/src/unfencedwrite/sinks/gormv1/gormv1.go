// Package gormv1 holds writes through gorm before v2 under a go-redis lock,
// judged as v2's are.
package gormv1

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jinzhu/gorm"
	"github.com/redis/go-redis/v9"
)

var errStale = errors.New("stale: a newer holder won")

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

type Order struct {
	ID     int64
	Status string
}

func pay(ctx context.Context, rdb *redis.Client, db *gorm.DB, o *Order) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:pay", token, 10*time.Second).Result(); err != nil || !ok {
		return err
	}
	defer unlockScript.Run(ctx, rdb, []string{"lock:pay"}, token)
	if err := db.Save(o).Error; err != nil { // want `unfenced write under a TTL lock: after the lease expires it can overwrite`
		return err
	}
	if err := db.Create(&Order{Status: "new"}).Error; err != nil { // want `unfenced write under a TTL lock: after the lease expires it can repeat a newer holder's insert`
		return err
	}
	res := db.Model(&Order{}).Where("id = ? AND status = ?", o.ID, "new").Update("status", "paid")
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errStale
	}
	return nil
}
