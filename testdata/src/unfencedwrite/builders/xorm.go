package builders

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"xorm.io/xorm"
)

type Payout struct {
	ID     int64 `xorm:"pk autoincr 'id'"`
	Status string
}

// xormWrites judges xorm's writes as the SQL xorm sends, with the count it
// returns as the check.
func xormWrites(ctx context.Context, rs *redsync.Redsync, engine *xorm.Engine, p *Payout) error {
	m := rs.NewMutex("payout")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if _, err := engine.ID(p.ID).Cols("status").Update(&Payout{Status: "sent"}); err != nil { // want `unfenced write under a TTL lock: after the lease expires it can overwrite`
		return err
	}
	if _, err := engine.Insert(&Payout{Status: "new"}); err != nil { // want `unfenced write under a TTL lock: after the lease expires it can repeat a newer holder's insert`
		return err
	}
	n, err := engine.Where("id = ? AND status = ?", p.ID, "new").Cols("status").Update(&Payout{Status: "sent"})
	if err != nil {
		return err
	}
	if n == 0 {
		return errStale
	}
	return nil
}
