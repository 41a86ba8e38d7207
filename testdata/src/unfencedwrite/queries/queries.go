// Package queries keeps SQL text apart from the code that runs it.
package queries

import "database/sql"

// MarkPaid returns the statement that marks an order paid.
func MarkPaid() string { return "UPDATE orders SET status = 'PAID' WHERE id = $1" }

// Ship is the statement that ships a paid order.
var Ship = "UPDATE orders SET status = 'SHIPPED' WHERE id = $1 AND status = 'PAID'"

// DB is the handle the queries run on.
var DB *sql.DB
