// Package queries keeps SQL text apart from the code that runs it.
package queries

import _ "embed"

// UpdateOrderSQL returns the statement that moves an order on.
func UpdateOrderSQL() string { // want UpdateOrderSQL:`"UPDATE orders SET status = \$2 WHERE id = \$1 AND status = \$3"`
	return updateOrder
}

const updateOrder = "UPDATE orders SET status = $2 WHERE id = $1 AND status = $3"

// ClaimJobSQL is read from a file.
//
//go:embed claim.sql
var ClaimJobSQL string // want ClaimJobSQL:`"UPDATE jobs SET owner = \$1 WHERE id = \$2 AND owner IS NULL\\n"`

// TableSQL formats its table into the text: what it returns is not one text.
func TableSQL(table string) string {
	return "DELETE FROM " + table
}
