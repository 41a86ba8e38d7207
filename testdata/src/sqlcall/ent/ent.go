// Package ent holds statements built with an ent client generated into the
// program (../entgen): read by the builders' shape, with the columns and
// table ent generates beside each entity.
package ent

import (
	"context"

	gen "testcases/sqlcall/entgen/ent"
	"testcases/sqlcall/entgen/ent/account"
	"testcases/sqlcall/entgen/ent/order"
)

func writes(ctx context.Context, client *gen.Client, o *gen.Order, id int) error {
	client.Order.UpdateOneID(id).SetStatus("paid").Save(ctx)                                            // want `ent.Save Update orders set status=p1 where id=p2 args "paid",id on \*client.4$`
	_, err := client.Order.UpdateOneID(id).Where(order.StatusEQ("pending")).SetStatus("paid").Save(ctx) // want `ent.Save Update orders set status=p1 where id=p2,status=p3 args "paid",id,"pending" on \*client.4 checked$`
	if err != nil {
		return err
	}
	n, err := client.Account.Update().Where(account.UserID(7), account.BalanceGTE(10)).AddBalance(-10).Save(ctx) // want `ent.Save Update accounts set balance=balance - \?\(self\) where user_id=p2,balance>=p3 args -10,7,10 on \*client.2 checked$`
	if err != nil || n == 0 {
		return err
	}
	client.Order.UpdateOne(o).SetVersion(2).Exec(ctx)                                         // want `ent.Exec Update orders set version=p1 where id=p2 on \*client.4$`
	client.Order.Create().SetUserID(7).SetAmount(100).Save(ctx)                               // want `ent.Save Insert orders args 7,100 on \*client.4$`
	client.Order.Delete().Where(order.And(order.ID(id), order.StatusIn("a", "b"))).Exec(ctx)  // want `ent.Exec Delete orders where id=p1,status IN p2 on \*client.4$`
	client.Order.Update().Where(order.Or(order.ID(id), order.ID(1))).SetStatus("x").Exec(ctx) // want `ent.Exec Update orders set status=p1 on \*client.4 unknown$`
	return nil
}

func inTx(ctx context.Context, client *gen.Client, id int) error {
	tx, err := client.Tx(ctx)
	if err != nil {
		return err
	}
	if err := tx.Order.UpdateOneID(id).SetStatus("paid").Exec(ctx); err != nil { // want `ent.Exec Update orders set status=p1 where id=p2 args "paid",id on \*Tx#0.3 tx checked$`
		return tx.Rollback()
	}
	return tx.Commit()
}
