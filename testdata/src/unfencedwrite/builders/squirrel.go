// Package builders holds writes built with query builders under a TTL lock:
// judged as the SQL they write.
package builders

import (
	"context"
	"database/sql"
	"errors"

	sq "github.com/Masterminds/squirrel"
	"github.com/go-redsync/redsync/v4"
)

var errStale = errors.New("a newer holder moved the order on")

func blind(rs *redsync.Redsync, db *sql.DB, id int64) error {
	m := rs.NewMutex("order")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	_, err := sq.Update("orders").Set("status", "PAID").Where(sq.Eq{"id": id}).RunWith(db).Exec() // want `unfenced write under a TTL lock: after the lease expires it can overwrite`
	return err
}

func compareAndSet(ctx context.Context, rs *redsync.Redsync, db *sql.DB, id int64) error {
	m := rs.NewMutex("order")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	res, err := sq.Update("orders").Set("status", "PAID").
		Where(sq.Eq{"id": id, "status": "PENDING"}).RunWith(db).ExecContext(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errStale
	}
	return nil
}

func unchecked(rs *redsync.Redsync, db *sql.DB, id int64) {
	m := rs.NewMutex("order")
	if err := m.Lock(); err != nil {
		return
	}
	defer m.Unlock()
	sq.Update("orders").Set("status", "PAID").Where("id = ? AND status = ?", id, "PENDING").RunWith(db).Exec() // want `result of the conditional write is ignored`
}

func inserts(rs *redsync.Redsync, db *sql.DB, user, coupon int64) error {
	m := rs.NewMutex("claim")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if _, err := sq.Insert("claims").Columns("user_id", "coupon_id").Values(user, coupon).
		Suffix("ON CONFLICT DO NOTHING").RunWith(db).Exec(); err != nil {
		return err
	}
	_, err := sq.Insert("grants").Columns("user_id").Values(user).RunWith(db).Exec() // want `unfenced write under a TTL lock: after the lease expires it can repeat a newer holder's insert`
	return err
}
