// Package freshkey inserts with ON CONFLICT DO NOTHING under a TTL lock. A
// conflict on a key drawn fresh for each insert never fires, so a holder
// whose lease ran out inserts its row again; a conflict on a key of the work
// itself (the order the payment is for) refuses it.
package freshkey

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/go-redsync/redsync/v4"
	"github.com/google/uuid"
)

func pay(ctx context.Context, rs *redsync.Redsync, db *sql.DB, orderID int64) error {
	m := rs.NewMutex("pay")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := db.ExecContext(ctx, `INSERT INTO payments (id, order_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, uuid.NewString(), orderID) // want `ON CONFLICT \(id\) never fires on a key drawn fresh`
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `INSERT INTO refunds (id, order_id) VALUES (gen_random_uuid(), $1) ON CONFLICT (id) DO NOTHING`, orderID) // want `ON CONFLICT \(id\) never fires`
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `INSERT INTO receipts (order_id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, orderID) // want `ON CONFLICT \(id\) never fires`
	if err != nil {
		return err
	}
	// Silent: conflicts on the work's own key, or on any key.
	id := uuid.NewString()
	if _, err := db.ExecContext(ctx, `INSERT INTO ledger (id, order_id) VALUES ($1, $2) ON CONFLICT (order_id) DO NOTHING`, id, orderID); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO grants (id, order_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, orderID, orderID); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `INSERT INTO notes (id, order_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, id, orderID)
	return err
}

// insertPayment is a repository method: the region's argument decides.
func insertPayment(ctx context.Context, db *sql.DB, id string, orderID int64) error {
	_, err := db.ExecContext(ctx, `INSERT INTO payments (id, order_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, id, orderID)
	return err
}

func payVia(ctx context.Context, rs *redsync.Redsync, db *sql.DB, orderID int64, key string) error {
	m := rs.NewMutex("pay")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if err := insertPayment(ctx, db, uuid.NewString(), orderID); err != nil { // want `unfenced write \(in insertPayment\) under a TTL lock: ON CONFLICT \(id\) never fires`
		return err
	}
	return insertPayment(ctx, db, key, orderID)
}

// updateMapped is a generic mapper's write: the table is spliced in at run
// time, so no row is named and nothing is judged.
func updateMapped(ctx context.Context, db *sql.DB, table, set, key string, id int64) error {
	_, err := db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET %s WHERE %s = $2", table, set, key), "x", id)
	return err
}

func saveMapped(ctx context.Context, rs *redsync.Redsync, db *sql.DB, table string, id int64) error {
	m := rs.NewMutex("save")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return updateMapped(ctx, db, table, strings.Join([]string{"data", "$1"}, " = "), "id", id)
}
