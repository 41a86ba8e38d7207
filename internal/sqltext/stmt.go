package sqltext

import "strconv"

// Kind is the kind of a statement, taken from its main verb (after any
// WITH clause).
type Kind int

// Statement kinds.
const (
	// Unknown is empty text or text that does not start with a statement verb.
	Unknown Kind = iota
	// Select is SELECT, VALUES or TABLE.
	Select
	// Insert is INSERT (and CockroachDB UPSERT).
	Insert
	// Update is UPDATE.
	Update
	// Delete is DELETE.
	Delete
	// Merge is MERGE.
	Merge
	// Replace is MySQL/SQLite REPLACE.
	Replace
	// Other is any other recognised statement: DDL, transaction control, SET, ...
	Other
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case Unknown:
		return "Unknown"
	case Select:
		return "Select"
	case Insert:
		return "Insert"
	case Update:
		return "Update"
	case Delete:
		return "Delete"
	case Merge:
		return "Merge"
	case Replace:
		return "Replace"
	case Other:
		return "Other"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Writes reports whether statements of this kind modify table rows.
func (k Kind) Writes() bool {
	switch k {
	case Insert, Update, Delete, Merge, Replace:
		return true
	}
	return false
}

// OperandKind classifies the right-hand side of a comparison or assignment.
type OperandKind int

// Operand kinds.
const (
	// OpUnknown means the operand is missing.
	OpUnknown OperandKind = iota
	// OpPlaceholder is a bind parameter, possibly parenthesised or cast.
	OpPlaceholder
	// OpLiteral is a string, number, NULL, TRUE/FALSE or typed literal.
	OpLiteral
	// OpColumn is a (possibly qualified) column reference, e.g. EXCLUDED.x.
	OpColumn
	// OpExpr is anything else: arithmetic, function calls, lists, subqueries.
	OpExpr
)

// Operand is the value side of a condition or assignment.
type Operand struct {
	// Kind classifies the operand, looking through parentheses and casts.
	Kind OperandKind
	// Text is the operand as written, with each run of whitespace and
	// comments between tokens collapsed to one space.
	Text string
	// Placeholder identifies an OpPlaceholder: n for $n, ?n, :n and @pN;
	// the 1-based position among the statement's placeholders for `?`;
	// for a named placeholder the position of its name's first appearance.
	// It is 0 for other operand kinds.
	Placeholder int
	// Name is a named placeholder's name without its prefix (":id" -> "id").
	Name string
}

// Cond is one top-level conjunct of a WHERE clause that has the form
// <column> <op> <operand>. A conjunct written <operand> <op> <column> is
// reported turned around (`$1 > v` as `v < $1`).
type Cond struct {
	// Column is the column name, unqualified, unquoted and lower-cased.
	Column string
	// Op is the operator: "=", "<>", "!=", "<", "<=", ">", ">=", "<=>",
	// "IN", "NOT IN", "LIKE", "BETWEEN", "IS", "IS NOT", "IS DISTINCT FROM", ...
	// with keywords in upper case.
	Op string
	// Operand is the right-hand side; for BETWEEN it is "lo AND hi".
	Operand Operand
}

// Assign is one item of a SET list: column = value.
type Assign struct {
	// Column is the assigned column, unqualified and lower-cased.
	Column string
	// Value is the assigned expression.
	Value Operand
	// RefsSelf reports that Value reads the column's current value, as in
	// stock = stock - 1 or o.stock - 1 with o the target's alias. Columns
	// of other rows do not count: the proposed row of an upsert
	// (EXCLUDED.x, VALUES(x), a MySQL row alias) or another table (s.x in
	// UPDATE ... FROM s or from a MERGE source).
	RefsSelf bool
}

// Stmt is the shape of one statement.
type Stmt struct {
	// Kind is the statement kind.
	Kind Kind
	// Table is the target table of a write, or the first FROM table of a
	// SELECT, unqualified and lower-cased; "" if there is none or it is a
	// subquery.
	Table string
	// Columns is the INSERT/REPLACE column list (or MySQL INSERT ... SET
	// columns, or the MERGE insert list), lower-cased.
	Columns []string
	// Values is the one row of an INSERT's VALUES, in the order of Columns;
	// nil for several rows, a SELECT or a SET form.
	Values []Operand
	// Set is the UPDATE SET list, the upsert update list (ON CONFLICT DO
	// UPDATE SET, ON DUPLICATE KEY UPDATE), or the MERGE update lists.
	Set []Assign
	// SetFromValue reports an UPDATE whose SET list a Go value decides at
	// run time (gorm's Save, Updates of a struct): Set is empty, yet the
	// statement writes columns.
	SetFromValue bool
	// Where holds the top-level AND conjuncts of the WHERE clause; for an
	// upsert, of the DO UPDATE ... WHERE clause; for MERGE, of the AND
	// condition on the first WHEN clause that updates. Conjuncts that are
	// not <column> <op> <operand> are left out and WhereOpaque is set.
	Where []Cond
	// WhereOpaque reports that Where does not describe the whole condition:
	// top-level OR, NOT, EXISTS, subqueries, expressions on the column side,
	// set operations, several MERGE update clauses, ...
	WhereOpaque bool
	// HasWhere reports that the statement has the condition Where describes.
	HasWhere bool
	// OnConflict is "nothing" for ON CONFLICT DO NOTHING, INSERT IGNORE and
	// INSERT OR IGNORE; "update" for ON CONFLICT DO UPDATE, ON DUPLICATE
	// KEY UPDATE, INSERT OR REPLACE and UPSERT; "" otherwise.
	OnConflict string
	// ConflictTarget is the column list of ON CONFLICT (a, b), lower-cased.
	ConflictTarget []string
	// Locking is the first row-locking clause anywhere in the statement
	// (including CTEs and subqueries, where queue-claiming queries put it):
	// "FOR UPDATE", "FOR NO KEY UPDATE", "FOR SHARE", "FOR KEY SHARE" or
	// "LOCK IN SHARE MODE"; "" if none.
	Locking string
	// SkipLocked reports SKIP LOCKED on that locking clause.
	SkipLocked bool
	// NoWait reports NOWAIT on that locking clause.
	NoWait bool
	// Returning reports a top-level RETURNING clause.
	Returning bool
	// Placeholders counts the distinct placeholders: every `?`, each
	// distinct number of $n-style ones, each distinct name of named ones.
	Placeholders int
	// PlaceholderStyle is how the first placeholder starts: "$" ($1), "?",
	// ":" or "@" (named), or another lead character; "" if there is none.
	PlaceholderStyle string
}

// ValueOf returns what a one-row INSERT writes into column.
func (st Stmt) ValueOf(column string) (Operand, bool) {
	if len(st.Values) != len(st.Columns) {
		return Operand{}, false
	}
	for i, c := range st.Columns {
		if c == column {
			return st.Values[i], true
		}
	}
	return Operand{}, false
}
