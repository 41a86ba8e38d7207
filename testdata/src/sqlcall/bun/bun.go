// Package bun holds statements built with uptrace/bun: written out as bun
// writes them, then read as SQL.
package bun

import (
	"context"

	"github.com/uptrace/bun"
)

type Order struct {
	bun.BaseModel `bun:"table:shop_orders,alias:o"`

	ID     int64  `bun:",pk,autoincrement"`
	Status string `bun:"status,notnull"`
	UserID int64
}

type Seat struct {
	SeatNo string `bun:"seat_no,pk"`
	Holder string
}

func writes(ctx context.Context, db *bun.DB, tx bun.Tx, o *Order, id int64) error {
	db.NewUpdate().Model(o).Set("status = ?", "PAID").Where("id = ?", id).Exec(ctx)                                               // want `bun.Exec Update shop_orders set status=p1 where id=p2 args "PAID",id on db`
	res, err := tx.NewUpdate().Model((*Order)(nil)).Set("status = ?", "PAID").Where("id = ? AND status = ?", id, "NEW").Exec(ctx) // want `bun.Exec Update shop_orders set status=p1 where id=p2,status=p3 args "PAID",id,"NEW" on tx tx checked`
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil
	}
	db.NewUpdate().Model(o).WherePK().Exec(ctx)                                           // want `bun.Exec Update shop_orders set from a value where id=p1 on db$`
	db.NewUpdate().Model(o).Column("status").WherePK().Exec(ctx)                          // want `bun.Exec Update shop_orders set status=p1 where id=p2 on db$`
	db.NewUpdate().Model(o).Where("status = ?", "NEW").Exec(ctx)                          // want `bun.Exec Update shop_orders set from a value where status=p1 on db unknown`
	db.NewInsert().Model(o).Exec(ctx)                                                     // want `bun.Exec Insert shop_orders on db$`
	db.NewInsert().Model(o).On("CONFLICT (user_id) DO NOTHING").Exec(ctx)                 // want `bun.Exec Insert shop_orders on db conflict nothing`
	db.NewInsert().Model(&Seat{}).Ignore().Exec(ctx)                                      // want `bun.Exec Insert seats on db conflict nothing`
	db.NewDelete().Model(o).WherePK().Exec(ctx)                                           // want `bun.Exec Delete shop_orders where id=p1 on db`
	db.NewSelect().Model(o).Where("id = ?", id).For("UPDATE").Scan(ctx)                   // want `bun.Scan Select shop_orders where id=p1 args id on db lock FOR UPDATE`
	db.NewUpdate().Table("orders").Set("status = ?", "X").WhereOr("id = ?", id).Exec(ctx) // want `bun.Exec Unknown on WhereOr# unknown`
	return nil
}
