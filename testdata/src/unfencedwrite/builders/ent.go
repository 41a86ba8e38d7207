package builders

import (
	"context"

	"github.com/go-redsync/redsync/v4"

	gen "testcases/sqlcall/entgen/ent"
	"testcases/sqlcall/entgen/ent/account"
	"testcases/sqlcall/entgen/ent/order"
)

// entWrites judges an ent client's writes as the SQL ent sends: by id alone
// they overwrite; pinned to the prior state, with the outcome checked, they
// are a compare-and-set; UpdateOne fails with NotFoundError when its Where
// matches nothing, so its error is the check.
func entWrites(ctx context.Context, rs *redsync.Redsync, client *gen.Client, id int, userID int64) error {
	m := rs.NewMutex("order")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if err := client.Order.UpdateOneID(id).SetStatus("paid").Exec(ctx); err != nil { // want `unfenced write under a TTL lock: after the lease expires it can overwrite`
		return err
	}
	if _, err := client.Order.Create().SetUserID(userID).SetAmount(10).Save(ctx); err != nil { // want `unfenced write under a TTL lock: after the lease expires it can repeat a newer holder's insert`
		return err
	}
	// The unique index ent's schema declares on grants refuses a repeat.
	if _, err := client.Grant.Create().SetUserID(userID).SetVoucherID(7).Save(ctx); err != nil {
		return err
	}
	if err := client.Order.UpdateOneID(id).Where(order.StatusEQ("pending")).SetStatus("paid").Exec(ctx); err != nil {
		return errStale
	}
	n, err := client.Account.Update().Where(account.UserID(userID), account.BalanceGTE(10)).AddBalance(-10).Save(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return errStale
	}
	return nil
}
