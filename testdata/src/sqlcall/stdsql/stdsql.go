// Package stdsql holds database/sql calls and the ways their text is written.
package stdsql

import (
	"context"
	"database/sql"
	_ "embed"
	"fmt"
	"strings"
)

const ordersTable = "orders"

const markPaid = `UPDATE orders SET status = 'PAID' WHERE id = $1`

var fenced = "UPDATE orders SET status = $1, fencing_token = $2 " +
	"WHERE id = $3 AND fencing_token < $2"

//go:embed claim.sql
var claim string

func methods(ctx context.Context, db *sql.DB, tx *sql.Tx, conn *sql.Conn, id int64) {
	db.Exec("DELETE FROM carts WHERE order_id = ?", id)                               // want `database/sql.Exec Delete carts where order_id=p1 args id on db`
	db.ExecContext(ctx, markPaid, id)                                                 // want `database/sql.ExecContext Update orders set status='PAID' where id=p1 args id on db`
	tx.ExecContext(ctx, fenced, "PAID", 7, id)                                        // want `database/sql.ExecContext Update orders set status=p1,fencing_token=p2 where id=p3,fencing_token<p2 args "PAID",7,id on tx tx`
	conn.ExecContext(ctx, claim, id)                                                  // want `database/sql.ExecContext Update jobs set owner=p1 where id=p2,owner IS NULL args id on conn`
	db.QueryRowContext(ctx, `SELECT status FROM orders WHERE id = $1 FOR UPDATE`, id) // want `database/sql.QueryRowContext Select orders where id=p1 args id on db lock FOR UPDATE`
	tx.Query("SELECT id FROM orders")                                                 // want `database/sql.Query Select orders on tx tx`
	defer db.Exec(`UPDATE orders SET seen = true WHERE id = $1`, id)                  // want `database/sql.Exec Update orders set seen=true where id=p1 args id on db`
	go tx.Exec(`INSERT INTO audit (order_id) VALUES ($1)`, id)                        // want `database/sql.Exec Insert audit args id on tx tx`
}

func texts(ctx context.Context, db *sql.DB, id int64, col string, ids []any) {
	db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET %s = $1 WHERE id = $2", ordersTable, col), 1, id)           // want `database/sql.ExecContext Update orders set __hole1__=p1 where id=p2 args 1,id on db holes`
	db.ExecContext(ctx, fmt.Sprintf("UPDATE t SET pct = 100%% WHERE id = %d AND n = %d", 7, id))               // want `database/sql.ExecContext Update t set pct=100% where id=7,n=__hole1__ on db holes`
	db.ExecContext(ctx, strings.Join([]string{"UPDATE orders", "SET status = 'X'", "WHERE id = $1"}, " "), id) // want `database/sql.ExecContext Update orders set status='X' where id=p1 args id on db`
	q := "UPDATE orders SET status = $2"
	q += " WHERE id = $1"
	db.ExecContext(ctx, q, id, "PAID")                                               // want `database/sql.ExecContext Update orders set status=p2 where id=p1 args id,"PAID" on db`
	db.ExecContext(ctx, updateSQL(), id)                                             // want `database/sql.ExecContext Update orders set status='Z' where id=p1 args id on db`
	db.ExecContext(ctx, "UPDATE orders SET note = "+col+" WHERE id = $1", id)        // want `database/sql.ExecContext Unknown args id on db unknown`
	db.ExecContext(ctx, "UPDATE orders SET status = 'X' WHERE id = ANY($1)", ids...) // want `database/sql.ExecContext Update orders set status='X' where id=ANY\(\$1\) on db`
	var where string
	if id > 0 {
		where = " WHERE id = $1"
	} else {
		where = " WHERE id = $1"
	}
	db.ExecContext(ctx, "DELETE FROM orders"+where, id) // want `database/sql.ExecContext Delete orders where id=p1 args id on db`
	captured := "UPDATE orders SET status = 'Y' WHERE id = $1"
	func() {
		db.ExecContext(ctx, captured, id) // want `database/sql.ExecContext Update orders set status='Y' where id=p1 args id on db`
	}()
}

func updateSQL() string {
	return "UPDATE orders SET status = 'Z' WHERE id = $1"
}

func prepared(ctx context.Context, db *sql.DB, tx *sql.Tx, id int64) error {
	stmt, err := db.PrepareContext(ctx, markPaid)
	if err != nil {
		return err
	}
	stmt.ExecContext(ctx, id)          // want `database/sql.ExecContext Update orders set status='PAID' where id=p1 args id on db`
	tx.StmtContext(ctx, stmt).Exec(id) // want `database/sql.Exec Update orders set status='PAID' where id=p1 args id on tx tx`
	txStmt, _ := tx.Prepare(fenced)
	txStmt.Exec("PAID", 7, id) // want `database/sql.Exec Update orders set status=p1,fencing_token=p2 where id=p3,fencing_token<p2 args "PAID",7,id on tx tx`
	return nil
}

func results(ctx context.Context, db *sql.DB, id int64) (sql.Result, error) {
	res, err := db.ExecContext(ctx, "UPDATE orders SET status = 'A' WHERE id = $1 AND status = 'B'", id) // want `database/sql.ExecContext Update orders set status='A' where id=p1,status='B' args id on db checked`
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil, err
	}
	res2, _ := db.ExecContext(ctx, "UPDATE orders SET status = 'C' WHERE id = $1", id) // want `database/sql.ExecContext Update orders set status='C' where id=p1 args id on db`
	res2.LastInsertId()
	if _, err := db.ExecContext(ctx, "UPDATE orders SET status = 'D' WHERE id = $1", id); err != nil { // want `database/sql.ExecContext Update orders set status='D' where id=p1 args id on db`
		return nil, err
	}
	var stock int
	db.QueryRowContext(ctx, "UPDATE items SET stock = stock - 1 WHERE id = $1 AND stock > 0 RETURNING stock", id).Scan(&stock) // want `database/sql.QueryRowContext Update items set stock=stock - 1\(self\) where id=p1,stock>0 args id on db returning checked`
	rows, _ := db.QueryContext(ctx, "UPDATE items SET stock = 0 WHERE id = $1", id)                                            // want `database/sql.QueryContext Update items set stock=0 where id=p1 args id on db`
	rows.Close()
	return db.ExecContext(ctx, "UPDATE orders SET status = 'E' WHERE id = $1", id) // want `database/sql.ExecContext Update orders set status='E' where id=p1 args id on db checked`
}

// Store embeds the handle: its promoted methods run on the *sql.DB inside.
type Store struct {
	*sql.DB
}

func promoted(ctx context.Context, s *Store, v Store, id int64) {
	s.ExecContext(ctx, markPaid, id) // want `database/sql.ExecContext Update orders set status='PAID' where id=p1 args id on s`
	v.ExecContext(ctx, markPaid, id) // want `database/sql.ExecContext Update orders set status='PAID' where id=p1 args id on v`
}

// DBTX is the interface sqlc generates over *sql.DB and *sql.Tx.
type DBTX interface {
	ExecContext(context.Context, string, ...interface{}) (sql.Result, error)
	QueryRowContext(context.Context, string, ...interface{}) *sql.Row
}

// Queries is sqlc's query type.
type Queries struct {
	db DBTX
}

const updateStatus = `-- name: UpdateStatus :exec
UPDATE orders SET status = $2 WHERE id = $1
`

func (q *Queries) UpdateStatus(ctx context.Context, id int64, status string) error {
	_, err := q.db.ExecContext(ctx, updateStatus, id, status) // want `database/sql.ExecContext Update orders set status=p2 where id=p1 args id,status on \*q.0`
	return err
}

// Repo keeps a prepared statement: where it was prepared is out of sight.
type Repo struct {
	markPaid *sql.Stmt
}

func (r *Repo) pay(ctx context.Context, id int64) {
	r.markPaid.ExecContext(ctx, id) // want `database/sql.ExecContext Unknown args id on \*r.0 unknown`
}

func unknownTexts(ctx context.Context, db *sql.DB, id int64, paid bool) {
	q := "UPDATE orders SET status = 'PAID' WHERE id = $1"
	if !paid {
		q = "UPDATE orders SET status = 'LOST' WHERE id = $1"
	}
	db.ExecContext(ctx, q, id) // want `database/sql.ExecContext Unknown args id on db unknown`
	r := "UPDATE orders SET status = 'A' WHERE id = $1"
	func() { r = "DELETE FROM orders WHERE id = $1" }()
	db.ExecContext(ctx, r, id) // want `database/sql.ExecContext Unknown args id on db unknown`
	cols := "UPDATE orders SET a = 1"
	for i := 0; i < 3; i++ {
		cols += ", b = 2"
	}
	db.ExecContext(ctx, cols) // want `database/sql.ExecContext Unknown on db unknown`
	table := "orders"
	if paid {
		table = "orders"
	}
	db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET n = %d WHERE id = $1", table, id), id)             // want `database/sql.ExecContext Update orders set n=__hole1__ where id=p1 args id on db holes`
	db.ExecContext(ctx, fmt.Sprintf("UPDATE %[2]s SET n = %[1]d WHERE id = $1", id, ordersTable), id) // want `database/sql.ExecContext Update orders set n=__hole1__ where id=p1 args id on db holes`
}

// Logged wraps a handle; its method's types say that it runs SQL.
type Logged struct{ db *sql.DB }

func (l Logged) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return l.db.ExecContext(ctx, query, args...) // want `database/sql.ExecContext Unknown on \*&l.0 unknown checked`
}

func wrapped(ctx context.Context, l Logged, id int64) {
	res, _ := l.ExecContext(ctx, markPaid, id) // want `database/sql.ExecContext Update orders set status='PAID' where id=p1 args id on l checked`
	check(res)
}

func check(sql.Result) {}
