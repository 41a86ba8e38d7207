// Package pgx holds pgx v5 and v4 calls.
package pgx

import (
	"context"

	pgxv4 "github.com/jackc/pgx/v4"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

func v5(ctx context.Context, conn *pgx.Conn, pool *pgxpool.Pool, id, token int64) error {
	conn.Exec(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id)                                              // want `pgx.Exec Update orders set status='PAID' where id=p1 args id on conn`
	tag, err := pool.Exec(ctx, `UPDATE orders SET fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, token) // want `pgx.Exec Update orders set fencing_token=p2 where id=p1,fencing_token<p2 args id,token on pool checked`
	if err != nil || tag.RowsAffected() != 1 {
		return err
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var status string
	if err := tx.QueryRow(ctx, `SELECT status FROM orders WHERE id = $1 FOR UPDATE SKIP LOCKED`, id).Scan(&status); err != nil { // want `pgx.QueryRow Select orders where id=p1 args id on Begin#0 tx lock FOR UPDATE skip locked`
		return err
	}
	tx.Exec(ctx, `UPDATE orders SET status = @status WHERE id = @id`, pgx.NamedArgs{"id": id, "status": "PAID"}) // want `pgx.Exec Update orders set status=p1 where id=p2 on Begin#0 tx named _`
	conn.Exec(ctx, `UPDATE orders SET status = 'X' WHERE id = $1`, pgx.QueryExecModeSimpleProtocol, id)          // want `pgx.Exec Update orders set status='X' where id=p1 args id on conn`
	rows, err := pool.Query(ctx, `UPDATE orders SET status = 'Y' WHERE id = $1 RETURNING id`, id)                // want `pgx.Query Update orders set status='Y' where id=p1 args id on pool returning checked`
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM carts WHERE order_id = $1`, id) // want `pgx.Exec Delete carts where order_id=p1 args id on tx tx`
		return err
	})
	return tx.Commit(ctx)
}

func v4(ctx context.Context, conn *pgxv4.Conn, tx pgxv4.Tx, id int64) {
	conn.Exec(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id)                                                                        // want `pgx.Exec Update orders set status='PAID' where id=p1 args id on conn`
	if tag, err := tx.Exec(ctx, `UPDATE orders SET status = 'X' WHERE id = $1 AND status = 'PAID'`, id); err == nil && tag.RowsAffected() == 0 { // want `pgx.Exec Update orders set status='X' where id=p1,status='PAID' args id on tx tx checked`
		return
	}
}

// DBTX is the interface sqlc generates for pgx.
type DBTX interface {
	Exec(context.Context, string, ...interface{}) (pgconn.CommandTag, error)
	QueryRow(context.Context, string, ...interface{}) pgx.Row
}

func sqlc(ctx context.Context, db DBTX, id int64) {
	db.QueryRow(ctx, `SELECT status FROM orders WHERE id = $1`, id)     // want `pgx.QueryRow Select orders where id=p1 args id on db`
	db.Exec(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want `pgx.Exec Update orders set status='PAID' where id=p1 args id on db`
}
