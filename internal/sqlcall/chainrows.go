package sqlcall

import "github.com/lockvet/lockvet/internal/sqltext"

const squirrelPath = "github.com/Masterminds/squirrel"

// chainRows are the query builder calls lockvet reads, by function.
var chainRows = builderRows()

// chainExprs are the packages whose Expr(sql, args...) is SQL inside a
// builder, by path, with the library's name.
var chainExprs = map[string]string{squirrelPath: "squirrel"}

// chainComparisons are the map types whose entries compare a column with a
// value, by type, with the operator; chainConjunctions the slices of
// predicates that all hold.
var chainComparisons = map[string]string{
	squirrelPath + ".Eq": "=", squirrelPath + ".NotEq": "<>",
	squirrelPath + ".Lt": "<", squirrelPath + ".LtOrEq": "<=",
	squirrelPath + ".Gt": ">", squirrelPath + ".GtOrEq": ">=",
}

var chainConjunctions = map[string]bool{squirrelPath + ".And": true}

func builderRows() map[key]*chainRow {
	m := make(map[key]*chainRow)
	add := func(r chainRow, recvs []string, names ...string) {
		for _, recv := range recvs {
			for _, n := range names {
				row := r
				row.recv, row.name = recv, n
				m[key{row.path, row.recv, row.name}] = &row
			}
		}
	}
	sq := chainRow{path: squirrelPath, lib: "squirrel"}
	starts := map[string]sqltext.Kind{"Update": sqltext.Update, "Insert": sqltext.Insert, "Replace": sqltext.Replace,
		"Delete": sqltext.Delete, "Select": sqltext.Select}
	for name, kind := range starts {
		r := sq
		r.part, r.kind = partStart, kind
		add(r, []string{"", "StatementBuilderType"}, name)
	}
	builders := []string{"UpdateBuilder", "InsertBuilder", "DeleteBuilder", "SelectBuilder"}
	filtered := []string{"UpdateBuilder", "DeleteBuilder", "SelectBuilder"}
	with := func(p part) chainRow { r := sq; r.part = p; return r }
	add(with(partRun), builders, "Exec", "ExecContext", "Query", "QueryContext", "QueryRowContext", "ScanContext")
	add(with(partRun), []string{"UpdateBuilder", "InsertBuilder", "SelectBuilder"}, "QueryRow", "Scan")
	add(with(partWhere), filtered, "Where")
	add(with(partSuffix), builders, "Suffix")
	add(with(partHandle), builders, "RunWith")
	add(with(partInert), builders, "PlaceholderFormat")
	add(with(partInert), filtered, "Limit", "Offset", "OrderBy")
	add(with(partTable), []string{"UpdateBuilder"}, "Table")
	add(with(partTable), []string{"InsertBuilder"}, "Into")
	add(with(partTable), []string{"DeleteBuilder", "SelectBuilder"}, "From")
	add(with(partSet), []string{"UpdateBuilder"}, "Set")
	add(with(partSetMap), []string{"UpdateBuilder", "InsertBuilder"}, "SetMap")
	add(with(partColumns), []string{"InsertBuilder"}, "Columns")
	add(with(partValues), []string{"InsertBuilder"}, "Values")
	add(with(partOptions), []string{"InsertBuilder"}, "Options")
	add(with(partInert), []string{"SelectBuilder"}, "Columns", "Column", "Distinct", "GroupBy")
	return m
}
