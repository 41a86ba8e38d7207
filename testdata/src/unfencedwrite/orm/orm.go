// Package orm holds writes through sqlx, pgx and gorm under a lock.
package orm

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

type Order struct {
	ID     int64
	Status string
}

func sqlxWrites(ctx context.Context, rs *redsync.Redsync, db *sqlx.DB, id int64) error {
	m := rs.NewMutex("order")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	db.MustExec(`UPDATE orders SET status = 'PAID' WHERE id = $1`, id)                               // want `unfenced write under a TTL lock`
	_, err := db.NamedExecContext(ctx, `UPDATE orders SET status = :status WHERE id = :id`, Order{}) // want `unfenced write under a TTL lock`
	return err
}

func pgxWrites(ctx context.Context, rs *redsync.Redsync, pool *pgxpool.Pool, conn *pgx.Conn, id int64) error {
	m := rs.NewMutex("order")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if _, err := pool.Exec(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `INSERT INTO events (order_id, at) VALUES ($1, $2)`, id, time.Now()); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	tag, err := conn.Exec(ctx, `UPDATE orders SET status = 'SHIPPED' WHERE id = $1 AND status = 'PAID'`, id)
	if err != nil || tag.RowsAffected() != 1 {
		return err
	}
	return nil
}

func gormWrites(rs *redsync.Redsync, db *gorm.DB, id int64) error {
	m := rs.NewMutex("order")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	db.Model(&Order{}).Where("id = ?", id).Update("status", "PAID")                 // want `unfenced write under a TTL lock`
	db.Create(&Order{ID: id})                                                       // want `unfenced write under a TTL lock`
	_ = db.Clauses(clause.OnConflict{DoNothing: true}).Create(&Order{ID: id}).Error // nothing happens twice
	db.Exec(`UPDATE orders SET status = ? WHERE id = ?`, "PAID", id)                // want `unfenced write under a TTL lock`
	res := db.Model(&Order{}).Where("id = ? AND status = ?", id, "PENDING").Update("status", "PAID")
	if res.Error != nil || res.RowsAffected != 1 {
		return res.Error
	}
	return nil
}

type Company struct {
	ID   int64
	Name string `gorm:"column:name;unique;not null"`
}

type Visit struct {
	ID        int64
	PatientID string `gorm:"column:patient_id;index;uniqueIndex:idx_patient_day"`
	Day       string `gorm:"uniqueIndex:idx_patient_day"`
}

type Claim struct {
	ID       int64
	CouponID int64  `gorm:"not null;index:idx_coupon_user,unique"`
	UserID   string `gorm:"not null;index:idx_coupon_user,unique"`
}

type Grant struct {
	ID     int64
	UserID int64 `gorm:"index:idx_user,sort:desc"`
}

// A unique column makes the table refuse the stale holder's second row; an
// index alone does not.
func gormUnique(rs *redsync.Redsync, db *gorm.DB, name, patient, day string, user int64) error {
	m := rs.NewMutex("register:" + name)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if err := db.Create(&Company{Name: name}).Error; err != nil {
		return err
	}
	if err := db.Create(&Visit{PatientID: patient, Day: day}).Error; err != nil {
		return err
	}
	if err := db.Create(&Claim{CouponID: user, UserID: name}).Error; err != nil {
		return err
	}
	return db.Create(&Grant{UserID: user}).Error // want `unfenced write under a TTL lock: after the lease expires it can repeat`
}

// A WHERE added on some paths only is no one statement: lockvet cannot say
// whether it pins the row, and says nothing. The same chain built on every
// path is judged.
func gormBranched(rs *redsync.Redsync, db *gorm.DB, id int64, states []string) error {
	m := rs.NewMutex("order")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	q := db.Model(&Order{}).Where("id = ?", id)
	if len(states) > 0 {
		q = q.Where("status IN ?", states)
	}
	if res := q.Update("status", "PAID"); res.Error != nil || res.RowsAffected == 0 {
		return res.Error
	}
	p := db.Model(&Order{})
	p = p.Where("id = ?", id)
	p.Update("status", "SHIPPED") // want `unfenced write under a TTL lock`
	return nil
}
