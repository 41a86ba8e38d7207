// Package hooked runs SQL whose text another package holds.
package hooked

import (
	"context"
	"database/sql"

	"testcases/sqlcall/queries"
)

func run(ctx context.Context, db *sql.DB, id int64) {
	db.ExecContext(ctx, queries.UpdateOrderSQL(), id, "PAID", "PENDING") // want `database/sql.ExecContext Update orders set status=p2 where id=p1,status=p3 args id,"PAID","PENDING" on db`
	db.ExecContext(ctx, queries.ClaimJobSQL, "me", id)                   // want `database/sql.ExecContext Update jobs set owner=p1 where id=p2,owner IS NULL args "me",id on db`
	db.ExecContext(ctx, queries.TableSQL("orders"))                      // want `database/sql.ExecContext Unknown on db unknown`
}
