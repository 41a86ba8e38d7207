// Package sqlx holds sqlx calls: its own methods, package functions, named
// parameters and prepared statements.
package sqlx

import (
	"context"

	"github.com/jmoiron/sqlx"
)

type Order struct {
	ID     int64  `db:"id"`
	Status string `db:"status"`
}

func methods(ctx context.Context, db *sqlx.DB, tx *sqlx.Tx, id int64) error {
	db.MustExec(`UPDATE orders SET status = 'PAID' WHERE id = $1`, id)             // want `sqlx.MustExec Update orders set status='PAID' where id=p1 args id on db`
	tx.MustExecContext(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want `sqlx.MustExecContext Update orders set status='PAID' where id=p1 args id on tx tx`
	// Promoted from the embedded *sql.DB.
	db.ExecContext(ctx, `UPDATE orders SET status = 'SHIPPED' WHERE id = $1`, id) // want `database/sql.ExecContext Update orders set status='SHIPPED' where id=p1 args id on db`
	var o Order
	if err := db.GetContext(ctx, &o, `SELECT id, status FROM orders WHERE id = $1`, id); err != nil { // want `sqlx.GetContext Select orders where id=p1 args id on db`
		return err
	}
	var ids []int64
	tx.Select(&ids, `UPDATE orders SET status = 'DONE' WHERE status = 'PAID' RETURNING id`)    // want `sqlx.Select Update orders set status='DONE' where status='PAID' on tx tx returning checked`
	db.QueryRowxContext(ctx, `SELECT status FROM orders WHERE id = ?`, id)                     // want `sqlx.QueryRowxContext Select orders where id=p1 args id on db`
	_, err := db.NamedExecContext(ctx, `UPDATE orders SET status = :status WHERE id = :id`, o) // want `sqlx.NamedExecContext Update orders set status=p1 where id=p2 on db named \*&o`
	return err
}

func functions(ctx context.Context, db *sqlx.DB, tx *sqlx.Tx, e sqlx.ExtContext, id int64) {
	var n int
	sqlx.GetContext(ctx, db, &n, `SELECT count(*) FROM orders WHERE id = $1`, id)                                          // want `sqlx.GetContext Select orders where id=p1 args id on db`
	sqlx.MustExec(tx, `DELETE FROM carts WHERE order_id = $1`, id)                                                         // want `sqlx.MustExec Delete carts where order_id=p1 args id on tx tx`
	sqlx.NamedExec(db, `INSERT INTO orders (id, status) VALUES (:id, :status)`, map[string]any{"id": id, "status": "NEW"}) // want `sqlx.NamedExec Insert orders on db named _`
	e.ExecContext(ctx, `UPDATE orders SET status = 'X' WHERE id = $1`, id)                                                 // want `sqlx.ExecContext Update orders set status='X' where id=p1 args id on e`
}

func prepared(ctx context.Context, db *sqlx.DB, tx *sqlx.Tx, id int64) {
	stmt, _ := db.Preparex(`UPDATE orders SET status = $2 WHERE id = $1`)
	stmt.MustExec(id, "PAID") // want `sqlx.MustExec Update orders set status=p2 where id=p1 args id,"PAID" on db`
	// Promoted from the embedded *sql.Stmt.
	stmt.Exec(id, "PAID")                           // want `database/sql.Exec Update orders set status=p2 where id=p1 args id,"PAID" on db`
	tx.Stmtx(stmt).MustExecContext(ctx, id, "PAID") // want `sqlx.MustExecContext Update orders set status=p2 where id=p1 args id,"PAID" on tx tx`
	var o Order
	stmt.Get(&o, id, "PAID") // want `sqlx.Get Update orders set status=p2 where id=p1 args id,"PAID" on db`
	named, _ := tx.PrepareNamedContext(ctx, `UPDATE orders SET status = :status WHERE id = :id`)
	named.ExecContext(ctx, o) // want `sqlx.ExecContext Update orders set status=p1 where id=p2 on tx tx named \*&o`
}

func in(db *sqlx.DB, ids []int64) error {
	query, args, err := sqlx.In(`UPDATE orders SET status = 'X' WHERE id IN (?)`, ids)
	if err != nil {
		return err
	}
	res, err := db.Exec(db.Rebind(query), args...) // want `database/sql.Exec Update orders set status='X' where id IN p1 on db checked`
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}
