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

	bun := chainRow{path: bunPath, lib: "bun"}
	for name, kind := range map[string]sqltext.Kind{"NewUpdate": sqltext.Update, "NewInsert": sqltext.Insert,
		"NewDelete": sqltext.Delete, "NewSelect": sqltext.Select} {
		r := bun
		r.part, r.kind = partStart, kind
		add(r, []string{"DB", "Tx", "Conn", "IDB"}, name)
	}
	queries := []string{"UpdateQuery", "InsertQuery", "DeleteQuery", "SelectQuery"}
	on := func(p part) chainRow { r := bun; r.part = p; return r }
	add(on(partRun), queries, "Exec", "Scan")
	add(on(partModel), queries, "Model")
	add(on(partTable), queries, "Table", "ModelTableExpr")
	add(on(partWhere), queries, "Where")
	add(on(partWherePK), []string{"UpdateQuery", "DeleteQuery", "SelectQuery"}, "WherePK")
	add(on(partSetText), []string{"UpdateQuery"}, "Set")
	add(on(partSetColumns), []string{"UpdateQuery"}, "Column")
	add(on(partColumns), []string{"InsertQuery"}, "Column")
	add(on(partReturning), []string{"UpdateQuery", "InsertQuery", "DeleteQuery"}, "Returning")
	add(on(partOn), []string{"InsertQuery"}, "On")
	add(on(partIgnore), []string{"InsertQuery"}, "Ignore")
	add(on(partFor), []string{"SelectQuery"}, "For")
	add(on(partInert), []string{"UpdateQuery"}, "OmitZero")
	add(on(partInert), []string{"SelectQuery"}, "Column", "Order", "Limit", "Offset")
	addXormRows(add)
	return m
}
