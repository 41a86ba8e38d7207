package sqlcall

import (
	"strings"

	"github.com/lockvet/lockvet/internal/sqltext"
)

// method is one row of the table of calls that run SQL: where the call keeps
// its statement text, its arguments and its handle.
type method struct {
	path, recv, name string // recv "" is a package function; its first argument is the handle
	lib              string
	dest             bool // a destination comes before the text: sqlx Get and Select
	named            bool // one argument binds :name placeholders by field or key
	stmt             bool // a prepared statement: the text comes from the call that prepared it
}

const (
	stdPath  = "database/sql"
	sqlxPath = "github.com/jmoiron/sqlx"
	gormPath = "gorm.io/gorm"
	// gormV1Path is gorm before v2, whose *DB has the same chain and
	// finishers (Update takes its column and value as variadic attrs).
	gormV1Path = "github.com/jinzhu/gorm"
	// goZeroSqlxPath is go-zero's own sqlx, not jmoiron's.
	goZeroSqlxPath = "github.com/zeromicro/go-zero/core/stores/sqlx"
)

var pgxPaths = []string{
	"github.com/jackc/pgx/v5", "github.com/jackc/pgx/v5/pgxpool",
	"github.com/jackc/pgx/v4", "github.com/jackc/pgx/v4/pgxpool",
}

// txTypes are the handle types that are transactions, by package path.
var txTypes = map[string]string{
	stdPath:                           "Tx",
	sqlxPath:                          "Tx",
	"github.com/jackc/pgx/v5":         "Tx",
	"github.com/jackc/pgx/v5/pgxpool": "Tx",
	"github.com/jackc/pgx/v4":         "Tx",
	"github.com/jackc/pgx/v4/pgxpool": "Tx",
	bunPath:                           "Tx",
}

// methods are the calls that run SQL; prepares the calls that make a prepared
// statement, true for those that rebind an existing statement to a
// transaction (tx.Stmt(stmt)) rather than prepare text.
var methods, prepares = tables()

func tables() (map[key]*method, map[key]bool) {
	var rows []method
	add := func(m method, recvs []string, names ...string) {
		for _, r := range recvs {
			for _, n := range names {
				m.recv, m.name = r, n
				rows = append(rows, m)
			}
		}
	}
	textQueries := []string{"Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext"}
	contextQueries := []string{"ExecContext", "QueryContext", "QueryRowContext"}
	add(method{path: stdPath, lib: stdPath}, []string{"DB", "Tx"}, textQueries...)
	add(method{path: stdPath, lib: stdPath}, []string{"Conn"}, contextQueries...)
	add(method{path: stdPath, lib: stdPath, stmt: true}, []string{"Stmt"}, textQueries...)

	// sqlx's own methods; those of the embedded *sql.DB resolve to database/sql.
	sqlx := method{path: sqlxPath, lib: "sqlx"}
	sqlxDest := method{path: sqlxPath, lib: "sqlx", dest: true}
	sqlxNamed := method{path: sqlxPath, lib: "sqlx", named: true}
	handles := []string{"DB", "Tx"}
	add(sqlx, handles, "Exec", "ExecContext", "Query", "QueryContext", "MustExec", "MustExecContext",
		"Queryx", "QueryxContext", "QueryRowx", "QueryRowxContext")
	add(sqlxDest, handles, "Get", "GetContext", "Select", "SelectContext")
	add(sqlxNamed, handles, "NamedExec", "NamedExecContext", "NamedQuery")
	add(sqlxNamed, []string{"DB"}, "NamedQueryContext")
	add(sqlx, []string{"Conn"}, "ExecContext", "QueryContext", "QueryxContext", "QueryRowxContext")
	add(sqlxDest, []string{"Conn"}, "GetContext", "SelectContext")
	add(sqlx, []string{"Queryer"}, "Query", "Queryx", "QueryRowx")
	add(sqlx, []string{"QueryerContext"}, "QueryContext", "QueryxContext", "QueryRowxContext")
	add(sqlx, []string{"Execer"}, "Exec")
	add(sqlx, []string{"ExecerContext"}, "ExecContext")
	add(sqlx, []string{""}, "MustExec", "MustExecContext")
	add(sqlxDest, []string{""}, "Get", "GetContext", "Select", "SelectContext")
	add(sqlxNamed, []string{""}, "NamedExec", "NamedExecContext", "NamedQuery", "NamedQueryContext")
	add(method{path: sqlxPath, lib: "sqlx", stmt: true}, []string{"Stmt"}, "MustExec", "MustExecContext",
		"Queryx", "QueryxContext", "QueryRowx", "QueryRowxContext")
	add(method{path: sqlxPath, lib: "sqlx", stmt: true, dest: true}, []string{"Stmt"}, "Get", "GetContext", "Select", "SelectContext")
	add(method{path: sqlxPath, lib: "sqlx", stmt: true, named: true}, []string{"NamedStmt"}, "Exec", "ExecContext",
		"Query", "QueryContext", "QueryRow", "QueryRowContext", "MustExec", "MustExecContext",
		"Queryx", "QueryxContext", "QueryRowx", "QueryRowxContext")
	add(method{path: sqlxPath, lib: "sqlx", stmt: true, named: true, dest: true}, []string{"NamedStmt"},
		"Get", "GetContext", "Select", "SelectContext")

	// go-zero's sqlx: a raw connection or a transaction's Session; the
	// destination comes before the text.
	gz := method{path: goZeroSqlxPath, lib: "go-zero"}
	gzDest := method{path: goZeroSqlxPath, lib: "go-zero", dest: true}
	add(gz, []string{"Session"}, "Exec", "ExecCtx")
	add(gzDest, []string{"Session"}, "QueryRow", "QueryRowCtx", "QueryRowPartial", "QueryRowPartialCtx",
		"QueryRows", "QueryRowsCtx", "QueryRowsPartial", "QueryRowsPartialCtx")

	for _, p := range pgxPaths {
		recvs := []string{"Conn", "Tx"}
		if strings.HasSuffix(p, "/pgxpool") {
			recvs = append(recvs, "Pool")
		}
		add(method{path: p, lib: "pgx"}, recvs, "Exec", "Query", "QueryRow")
	}

	m := make(map[key]*method)
	for i := range rows {
		r := &rows[i]
		m[key{r.path, r.recv, r.name}] = r
	}

	p := make(map[key]bool)
	prep := func(path string, recvs []string, names ...string) {
		for _, r := range recvs {
			for _, n := range names {
				p[key{path, r, n}] = false
			}
		}
	}
	prep(stdPath, []string{"DB", "Tx"}, "Prepare", "PrepareContext")
	prep(stdPath, []string{"Conn"}, "PrepareContext")
	prep(sqlxPath, []string{"DB", "Tx"}, "Preparex", "PreparexContext", "PrepareNamed", "PrepareNamedContext")
	prep(sqlxPath, []string{"Conn"}, "PreparexContext")
	prep(sqlxPath, []string{""}, "Preparex", "PreparexContext")
	for _, name := range []string{"Stmt", "StmtContext"} {
		p[key{stdPath, "Tx", name}] = true
	}
	for _, name := range []string{"Stmtx", "StmtxContext", "NamedStmt", "NamedStmtContext"} {
		p[key{sqlxPath, "Tx", name}] = true
	}
	return m, p
}

// gormFinishers are the *gorm.DB methods that run a statement, by the kind
// of statement they run; Unknown marks raw SQL.
var gormFinishers = map[string]sqltext.Kind{
	"Exec": sqltext.Unknown, "Raw": sqltext.Unknown,
	"Update": sqltext.Update, "UpdateColumn": sqltext.Update,
	"Updates": sqltext.Update, "UpdateColumns": sqltext.Update, "Save": sqltext.Update,
	"Create": sqltext.Insert, "CreateInBatches": sqltext.Insert,
	"Delete": sqltext.Delete,
	"First":  sqltext.Select, "Take": sqltext.Select, "Last": sqltext.Select, "Find": sqltext.Select,
}

// gormChain are the *gorm.DB methods that add to the statement a finisher
// runs. true marks those whose arguments may bind placeholders outside the
// WHERE clause (a JOIN's, a HAVING's), which this package does not place.
var gormChain = map[string]bool{
	"Where": false, "Not": false, "Or": false, "Model": false, "Table": false, "Clauses": false,
	"Scopes": false, "Session": false, "WithContext": false, "Debug": false, "Omit": false,
	"Unscoped": false, "Limit": false, "Offset": false, "Order": false, "Preload": false,
	"Set": false, "InstanceSet": false, "Attrs": false, "Assign": false, "Group": false,
	"MapColumns": false, "Raw": false,
	"Distinct": false, "Select": true, "Joins": true, "InnerJoins": true, "Having": true,
}

type key struct{ path, recv, name string }

// isGorm reports whether path is gorm's, of either major version.
func isGorm(path string) bool { return path == gormPath || path == gormV1Path }
