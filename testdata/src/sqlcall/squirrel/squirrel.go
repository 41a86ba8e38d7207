// Package squirrel holds statements built with Masterminds/squirrel: each is
// written out as squirrel would write it, then read as SQL.
package squirrel

import (
	"context"
	"database/sql"

	sq "github.com/Masterminds/squirrel"
)

var psql = sq.StatementBuilder.PlaceholderFormat(sq.Dollar)

func updates(ctx context.Context, db *sql.DB, tx *sql.Tx, id int64, v int) error {
	sq.Update("orders").Set("status", "PAID").Where(sq.Eq{"id": id}).RunWith(db).Exec() // want `squirrel.Exec Update orders set status=p1 where id=p2 args "PAID",id on db`
	res, err := psql.Update("orders").Set("status", "PAID").Set("version", sq.Expr("version + ?", 1)).
		Where(sq.Eq{"id": id, "version": v}).RunWith(tx).ExecContext(ctx) // want `squirrel.ExecContext Update orders set status=p1,version=\(version \+ \?\)\(self\) where id=p3,version=p4 args "PAID",1,id,v on tx tx checked`
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return sql.ErrNoRows
	}
	sq.Update("stock").Set("qty", sq.Expr("qty - ?", 1)).Where("id = ? AND qty >= ?", id, 1).RunWith(db).Exec()                                       // want `squirrel.Exec Update stock set qty=\(qty - \?\)\(self\) where id=p2,qty>=p3 args 1,id,1 on db`
	sq.Update("orders").SetMap(map[string]any{"status": "PAID", "paid": true}).Where(sq.And{sq.Eq{"id": id}, sq.Lt{"version": v}}).RunWith(db).Exec() // want `squirrel.Exec Update orders set paid=p1,status=p2 where id=p3,version<p4 args true,"PAID",id,v on db`
	sq.Update("orders").Set("status", "X").Where(sq.Or{sq.Eq{"id": id}}).RunWith(db).Exec()                                                           // want `squirrel.Exec Update orders set status=p1 on db unknown`
	sq.Update("orders").Set("status", "X").Where(sq.Eq{"id": []int64{id}}).RunWith(db).Exec()                                                         // want `squirrel.Exec Update orders set status=p1 on db unknown`
	return nil
}

func inserts(db *sql.DB, user, coupon int64) {
	sq.Insert("claims").Columns("user_id", "coupon_id").Values(user, coupon).RunWith(db).Exec()                                  // want `squirrel.Exec Insert claims args user,coupon on db`
	sq.Insert("claims").Columns("user_id", "coupon_id").Values(user, coupon).Suffix("ON CONFLICT DO NOTHING").RunWith(db).Exec() // want `squirrel.Exec Insert claims args user,coupon on db conflict nothing`
	sq.Insert("claims").Options("IGNORE").SetMap(map[string]any{"user_id": user}).RunWith(db).Exec()                             // want `squirrel.Exec Insert claims args user on db conflict nothing`
}

func reads(db *sql.DB, id int64, cond bool) {
	sq.Select("id", "status").From("orders").Where(sq.Eq{"id": id}).Suffix("FOR UPDATE").RunWith(db).QueryRow() // want `squirrel.QueryRow Select orders where id=p1 args id on db lock FOR UPDATE`
	sq.Delete("sessions").Where("expires_at < now()").RunWith(db).Exec()                                        // want `squirrel.Exec Delete sessions where expires_at<now\(\) on db`
	q := sq.Update("orders").Set("status", "X")
	if cond {
		q = q.Where(sq.Eq{"id": id})
	}
	q.RunWith(db).Exec() // want `squirrel.Exec Unknown on db unknown`
}
