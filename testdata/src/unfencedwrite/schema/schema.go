// Package schema holds inserts under a lock that the module's migrations
// decide: a unique key or an EXCLUDE constraint refuses the stale holder's
// second row; a key the database draws fresh does not.
package schema

import (
	"context"
	"database/sql"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	"gorm.io/gorm"
)

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func lock(ctx context.Context, rdb *redis.Client, key string) (string, bool) {
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	return token, err == nil && ok
}

func claim(ctx context.Context, rdb *redis.Client, db *sql.DB, user, coupon int64) error {
	token, ok := lock(ctx, rdb, "lock:claim")
	if !ok {
		return nil
	}
	defer release.Run(ctx, rdb, []string{"lock:claim"}, token)
	_, err := db.ExecContext(ctx, `INSERT INTO coupon_claims (user_id, coupon_id) VALUES ($1, $2)`, user, coupon)
	return err
}

func credit(ctx context.Context, rdb *redis.Client, db *sql.DB, user, amount int64) error {
	token, ok := lock(ctx, rdb, "lock:credit")
	if !ok {
		return nil
	}
	defer release.Run(ctx, rdb, []string{"lock:credit"}, token)
	_, err := db.ExecContext(ctx, `INSERT INTO ledger_entries (user_id, amount) VALUES ($1, $2)`, user, amount) // want `unfenced write under a TTL lock: after the lease expires it can repeat a newer holder's insert`
	return err
}

func book(ctx context.Context, rdb *redis.Client, db *sql.DB, room int64, from, to time.Time) error {
	token, ok := lock(ctx, rdb, "lock:room")
	if !ok {
		return nil
	}
	defer release.Run(ctx, rdb, []string{"lock:room"}, token)
	_, err := db.ExecContext(ctx, `INSERT INTO room_bookings (room_id, during) VALUES ($1, tstzrange($2, $3))`, room, from, to)
	return err
}

func hold(ctx context.Context, rdb *redis.Client, db *sql.DB, seat int64) error {
	token, ok := lock(ctx, rdb, "lock:seat")
	if !ok {
		return nil
	}
	defer release.Run(ctx, rdb, []string{"lock:seat"}, token)
	_, err := db.ExecContext(ctx, `INSERT INTO seat_holds (seat_id, state) VALUES ($1, 'held')`, seat)
	return err
}

type CouponClaim struct {
	ID       int64
	UserID   int64
	CouponID int64
}

type LedgerEntry struct {
	ID     string
	UserID int64 `gorm:"column:user_id"`
	Amount int64
}

func claimORM(ctx context.Context, rdb *redis.Client, db *gorm.DB, user, coupon int64) error {
	token, ok := lock(ctx, rdb, "lock:claim")
	if !ok {
		return nil
	}
	defer release.Run(ctx, rdb, []string{"lock:claim"}, token)
	return db.Create(&CouponClaim{UserID: user, CouponID: coupon}).Error
}

func creditORM(ctx context.Context, rdb *redis.Client, db *gorm.DB, user, amount int64) error {
	token, ok := lock(ctx, rdb, "lock:credit")
	if !ok {
		return nil
	}
	defer release.Run(ctx, rdb, []string{"lock:credit"}, token)
	return db.Create(&LedgerEntry{ID: uuid.NewString(), UserID: user, Amount: amount}).Error // want `unfenced write under a TTL lock: after the lease expires it can repeat`
}

// A check-then-insert: the advice names the index that makes the check.
func oncePerUser(ctx context.Context, rdb *redis.Client, db *sql.DB, user, voucher int64) error {
	token, ok := lock(ctx, rdb, "lock:voucher")
	if !ok {
		return nil
	}
	defer release.Run(ctx, rdb, []string{"lock:voucher"}, token)
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM voucher_orders WHERE user_id = $1 AND voucher_id = $2`, user, voucher).Scan(&n); err != nil || n > 0 {
		return err
	}
	_, err := db.ExecContext(ctx, `INSERT INTO voucher_orders (user_id, voucher_id) VALUES ($1, $2)`, user, voucher) // want `repeat a newer holder's insert; CREATE UNIQUE INDEX ON voucher_orders \(user_id, voucher_id\) and insert with ON CONFLICT DO NOTHING`
	return err
}
