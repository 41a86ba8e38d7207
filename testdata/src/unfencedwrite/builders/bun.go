package builders

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"github.com/uptrace/bun"
)

type Ticket struct {
	bun.BaseModel `bun:"table:tickets"`

	ID     int64 `bun:",pk"`
	SeatID int64
	Status string
}

func bunWrites(ctx context.Context, rs *redsync.Redsync, db *bun.DB, t *Ticket) error {
	m := rs.NewMutex("seat")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if _, err := db.NewInsert().Model(t).Exec(ctx); err != nil { // want `unfenced write under a TTL lock: after the lease expires it can repeat a newer holder's insert`
		return err
	}
	if _, err := db.NewUpdate().Model(t).WherePK().Exec(ctx); err != nil { // want `unfenced write under a TTL lock: after the lease expires it can overwrite`
		return err
	}
	res, err := db.NewUpdate().Model(t).Set("status = ?", "SOLD").Where("id = ? AND status = ?", t.ID, "HELD").Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errStale
	}
	_, err = db.NewInsert().Model(t).On("CONFLICT (seat_id) DO NOTHING").Exec(ctx)
	return err
}
