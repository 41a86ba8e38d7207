package sqlcall

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/sqltext"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// A query builder's statement is read from the chain of calls that builds
// it, run by its terminal: each call is a row of chainRows saying what it
// adds, and the statement is written out as the builder would write it, with
// ? placeholders, then read like any other SQL text. Any call in the chain
// that is not a row, a chain that joins paths (if cond { q = q.Where(…) }),
// or a part lockvet cannot read leaves the call recognised with Known false.

// part is what one builder call adds to its statement.
type part int

const (
	partStart      part = iota + 1 // starts a statement of the row's kind; its first argument names the table, if a string
	partTable                      // names the table
	partSet                        // column, value
	partSetMap                     // a map of column to value
	partWhere                      // a predicate, with arguments
	partColumns                    // INSERT columns
	partValues                     // one row of INSERT values
	partSuffix                     // SQL text after the statement, with arguments
	partOptions                    // INSERT options: IGNORE
	partHandle                     // the database handle it runs on (RunWith)
	partModel                      // a bun model: the table, and the columns an INSERT or UPDATE writes
	partSetText                    // an assignment as SQL text, with arguments: bun's Set("status = ?", s)
	partSetColumns                 // columns an UPDATE writes from the model: bun's Column
	partWherePK                    // WHERE on the model's primary key
	partReturning                  // RETURNING text
	partOn                         // ON text: bun's On("CONFLICT (id) DO NOTHING")
	partIgnore                     // INSERT IGNORE
	partFor                        // FOR text: bun's For("UPDATE")
	partStartID                    // starts a statement of the row's kind on the row of one id: ent's UpdateOneID
	partAdd                        // column = column + value: ent's Add<Field>
	partClear                      // column = NULL: ent's Clear<Field>
	partEntWhere                   // ent predicates
	partWhereID                    // WHERE id = the argument: xorm's ID
	partInert                      // changes nothing a check asks about (ORDER BY, LIMIT, placeholders)
	partRun                        // runs the statement
	partRunBean                    // runs a statement of the row's kind on its bean argument's table: xorm's Update(&o)
)

// chainRow is one builder call: its function and what it adds.
type chainRow struct {
	path, recv, name string
	part             part
	kind             sqltext.Kind // for partStart
	lib              string
	// For rows read from their shape (ent): the column a part names, the
	// table a start names, whether the id comes from a model value, and
	// whether the builder changes one row, failing when none matches.
	column, table string
	idFromModel   bool
	entOne        bool
}

// rowOf returns the builder row of a function, or nil.
func rowOf(obj *types.Func) *chainRow {
	if row := chainRows[key{obj.Pkg().Path(), ssautil.RecvName(obj), obj.Name()}]; row != nil {
		return row
	}
	return entRow(obj)
}

// chainCall is one call of a chain, with its row.
type chainCall struct {
	row  *chainRow
	call *ssa.Call
	args []ssa.Value // without the receiver
}

// chain reads a call that runs a builder's statement, or returns nil when
// obj is not such a terminal.
func (r *Recognizer) chain(instr ssa.CallInstruction, obj *types.Func, recv ssa.Value) *Call {
	row := rowOf(obj)
	if row == nil || row.part != partRun && row.part != partRunBean || recv == nil || row.lib == "ent" && instr.Parent().Pkg.Pkg == obj.Pkg() {
		return nil // ent's builders calling each other run nothing of their own
	}
	c := &Call{Instr: instr, Lib: row.lib, Method: obj.Name(), Result: result(instr, nil)}
	if row.lib == "ent" {
		c.Result = entResult(instr, row)
	}
	calls, root, straight, started := walkBuilder(recv)
	w := &writer{r: r, known: straight && (started || row.part == partRunBean)}
	for _, cc := range calls {
		w.add(cc)
	}
	if row.part == partRunBean {
		_, _, args := ssautil.Callee(instr.Common())
		w.bean(instr, row, args)
	}
	if w.handle != nil {
		c.Handle = Origin(w.handle)
		c.InTx = isTx(w.handle.Type()) || isTx(c.Handle.Type())
	} else {
		c.Handle = root
		c.InTx = root != nil && (isTx(root.Type()) || entTx(root))
	}
	if w.kind == sqltext.Unknown {
		return c
	}
	setFromValue := w.fromModel()
	c.Text = w.text()
	c.Stmt = parse(c.Text)
	c.Known = w.known && c.Stmt.Kind == w.kind
	if setFromValue {
		c.Stmt.Set, c.Stmt.SetFromValue = nil, true
		c.Stmt.Placeholders--
		for i := range c.Stmt.Where {
			if o := &c.Stmt.Where[i].Operand; o.Kind == sqltext.OpPlaceholder && o.Placeholder > 0 {
				o.Placeholder-- // the stand-in's placeholder came first
			}
		}
		c.Known = c.Known && onlyPrimaryKey(c.Stmt, w.model)
	}
	if c.Known && !w.argsUnknown {
		c.Args = w.args()
	}
	if c.Known {
		c.Keyed = c.Stmt.Kind == sqltext.Insert && c.Stmt.OnConflict == "" && r.refused(c.Stmt.Table, c.Stmt.Columns)
	}
	return c
}

// walkBuilder returns the chain's calls from its start outwards, the value it
// starts from, whether the chain is one straight line of rows, and whether it
// begins with a row that starts a statement.
func walkBuilder(v ssa.Value) (calls []chainCall, root ssa.Value, straight, started bool) {
	ok := true
	for range 64 {
		v = ssautil.Assigned(v)
		if _, isPhi := v.(*ssa.Phi); isPhi {
			ok = false
			break
		}
		call, isCall := v.(*ssa.Call)
		if !isCall {
			break
		}
		obj, recv, args := ssautil.Callee(call.Common())
		if obj == nil || obj.Pkg() == nil {
			break
		}
		row := rowOf(obj)
		if row == nil || row.part == partRun {
			break
		}
		calls = append(calls, chainCall{row: row, call: call, args: args})
		if row.part == partStart || row.part == partStartID || recv == nil {
			v = recv
			break
		}
		v = recv
	}
	for i, j := 0, len(calls)-1; i < j; i, j = i+1, j-1 {
		calls[i], calls[j] = calls[j], calls[i]
	}
	started = len(calls) > 0 && (calls[0].row.part == partStart || calls[0].row.part == partStartID)
	return calls, v, ok, started
}

// writer writes a builder's statement out as SQL text with ? placeholders,
// keeping the values each placeholder binds.
type writer struct {
	r                  *Recognizer
	known              bool
	kind               sqltext.Kind
	table, options     string
	set, where, cols   []string
	values, suffix     []string
	setArgs, whereArgs []ssa.Value
	valueArgs, sufArgs []ssa.Value
	handle             ssa.Value
	model              *bunModel
	argsUnknown        bool
}

func (w *writer) add(cc chainCall) {
	args := cc.args
	switch cc.row.part {
	case partStart:
		w.kind, w.table = cc.row.kind, cc.row.table
		if len(args) > 0 && isString(args[0].Type()) {
			w.table = w.name(args[0])
		}
	case partWhereID:
		if len(args) != 1 {
			w.known = false
			return
		}
		w.where = append(w.where, "id = ?")
		w.whereArgs = append(w.whereArgs, bound(args[0]))
	case partStartID:
		w.kind, w.table = cc.row.kind, cc.row.table
		w.where = append(w.where, cc.row.column+" = ?")
		if cc.row.idFromModel || len(args) != 1 {
			w.argsUnknown = true
		} else {
			w.whereArgs = append(w.whereArgs, bound(args[0]))
		}
	case partSet, partAdd, partClear:
		if cc.row.column == "" {
			if cc.row.part == partSet && len(args) == 2 {
				w.setValue(w.name(args[0]), args[1])
			}
			return
		}
		w.setColumn(cc.row.part, cc.row.column, args)
	case partEntWhere:
		preds, ok := variadic(cc.call.Common(), args)
		if !ok {
			w.known = false
			return
		}
		for _, p := range preds {
			w.entWhere(p)
		}
	case partTable:
		if elems, ok := variadic(cc.call.Common(), args); ok && len(elems) > 0 {
			w.table = tableName(w.name(elems[0]))
		} else {
			w.known = false
		}
	case partSetMap:
		entries, ok := mapArg(args)
		if !ok {
			w.known = false
			return
		}
		for _, k := range sortedKeys(entries) {
			if w.kind == sqltext.Insert {
				w.cols = append(w.cols, k)
				w.values = append(w.values, "?")
				w.valueArgs = append(w.valueArgs, bound(entries[k]))
				continue
			}
			w.setValue(k, entries[k])
		}
	case partWhere:
		if len(args) == 0 {
			w.known = false
			return
		}
		rest, ok := variadic(cc.call.Common(), args[1:])
		if !ok {
			w.known = false
			return
		}
		w.predicate(args[0], rest)
	case partColumns:
		elems, ok := variadic(cc.call.Common(), args)
		if !ok {
			w.known = false
			return
		}
		for _, e := range elems {
			w.cols = append(w.cols, w.name(e))
		}
	case partValues:
		elems, ok := variadic(cc.call.Common(), args)
		if !ok || len(w.values) > 0 {
			w.known = false // a slice of values, or a second row
			return
		}
		for _, e := range elems {
			text, a := w.operand(e)
			w.values = append(w.values, text)
			w.valueArgs = append(w.valueArgs, a...)
		}
	case partSuffix:
		if len(args) == 0 {
			w.known = false
			return
		}
		text, ok := w.r.QueryText(args[0])
		rest, ok2 := variadic(cc.call.Common(), args[1:])
		if !ok || !ok2 {
			w.known = false
			return
		}
		w.suffix = append(w.suffix, text)
		for _, a := range rest {
			w.sufArgs = append(w.sufArgs, bound(a))
		}
	case partOptions:
		elems, ok := variadic(cc.call.Common(), args)
		if !ok {
			w.known = false
			return
		}
		for _, e := range elems {
			w.options += " " + w.name(e)
		}
	case partHandle:
		if len(args) == 1 {
			w.handle = ssautil.Unwrap(args[0])
		}
	case partModel:
		if len(args) == 1 {
			m := readBunModel(ssautil.Unwrap(args[0]).Type())
			w.model = &m
			if w.table == "" {
				w.table = m.table
			}
		}
	case partSetText:
		if text, rest, ok := w.textArgs(cc, args); ok {
			w.set = append(w.set, text)
			w.setArgs = append(w.setArgs, rest...)
		}
	case partSetColumns:
		elems, ok := variadic(cc.call.Common(), args)
		if !ok {
			w.known = false
			return
		}
		for _, e := range elems {
			w.set = append(w.set, w.name(e)+" = ?")
		}
		w.argsUnknown = true
	case partWherePK:
		if w.model == nil || len(args) > 0 && !isNilSlice(args[len(args)-1]) {
			w.known = false
			return
		}
		for _, col := range w.model.primaryKey {
			w.where = append(w.where, col+" = ?")
		}
		w.argsUnknown = true
	case partReturning, partOn, partFor:
		if text, rest, ok := w.textArgs(cc, args); ok {
			w.suffix = append(w.suffix, suffixWords[cc.row.part]+text)
			w.sufArgs = append(w.sufArgs, rest...)
		}
	case partIgnore:
		w.options += " IGNORE"
	}
}

var suffixWords = map[part]string{partReturning: "RETURNING ", partOn: "ON ", partFor: "FOR "}

// textArgs reads a call's SQL text and the arguments after it.
func (w *writer) textArgs(cc chainCall, args []ssa.Value) (string, []ssa.Value, bool) {
	if len(args) == 0 {
		w.known = false
		return "", nil, false
	}
	text := w.name(args[0])
	rest, ok := variadic(cc.call.Common(), args[1:])
	if !ok {
		w.known = false
		return "", nil, false
	}
	out := make([]ssa.Value, len(rest))
	for i, a := range rest {
		out[i] = bound(a)
	}
	return text, out, true
}

func isNilSlice(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// fromModel fills in what a bun model writes when the chain does not say:
// the columns of an INSERT, the SET of an UPDATE (every column, whatever the
// row holds). It reports the second.
func (w *writer) fromModel() (setFromValue bool) {
	if w.model == nil {
		return false
	}
	switch {
	case w.kind == sqltext.Insert && len(w.cols) == 0 && len(w.values) == 0:
		w.cols = w.model.columns
		for range w.cols {
			w.values = append(w.values, "?")
		}
		w.argsUnknown = true
	case w.kind == sqltext.Update && len(w.set) == 0:
		w.set = []string{fromModelColumn + " = ?"}
		w.argsUnknown = true
		return true
	}
	return false
}

// fromModelColumn stands for the columns a model value sets, so that the
// statement still reads; it is taken out of Set after.
const fromModelColumn = "__model__"

// onlyPrimaryKey reports whether an UPDATE's WHERE is its model's primary
// key alone: with a SET from a model value, any other condition may pin the
// columns it changes.
func onlyPrimaryKey(st sqltext.Stmt, m *bunModel) bool {
	if st.WhereOpaque || len(st.Where) != len(m.primaryKey) {
		return false
	}
	for i, c := range st.Where {
		if c.Column != m.primaryKey[i] || c.Op != "=" {
			return false
		}
	}
	return true
}

// name reads a constant name or SQL fragment; unreadable text makes the
// statement unknown.
func (w *writer) name(v ssa.Value) string {
	text, ok := w.r.QueryText(v)
	if !ok {
		w.known = false
		return "__hole__"
	}
	return text
}

// bean reads the finisher of a chain that names its statement last (xorm's
// Update(&order), Insert(&order), Delete(&order)): the kind, and the table
// and columns of its bean. A second bean, or conditions taken from one, make
// the statement unknown.
func (w *writer) bean(instr ssa.CallInstruction, row *chainRow, args []ssa.Value) {
	w.kind = row.kind
	beans, ok := variadic(instr.Common(), args)
	if !ok || len(beans) == 0 || len(beans) > 1 && row.kind != sqltext.Update {
		w.known = false
		return
	}
	if row.kind == sqltext.Update && len(beans) > 1 {
		w.known = false // a condition bean: its non-zero fields are the WHERE
	}
	m := w.r.readXormModel(ssautil.Unwrap(beans[0]).Type())
	w.model = &m
	if w.table == "" {
		w.table = m.table
	}
	if row.kind == sqltext.Delete && len(w.where) == 0 {
		w.known = false // the bean's non-zero fields are the WHERE
	}
}

// setColumn writes a part that names its column (ent's SetStatus(s),
// AddBalance(n), ClearNote()).
func (w *writer) setColumn(p part, column string, args []ssa.Value) {
	switch {
	case p == partClear:
		w.set = append(w.set, column+" = NULL")
	case len(args) != 1:
		w.known = false
	case w.kind == sqltext.Insert:
		w.cols = append(w.cols, column)
		w.values = append(w.values, "?")
		w.valueArgs = append(w.valueArgs, bound(args[0]))
	case p == partAdd:
		// AddBalance(-n) is how ent decrements: written as the SQL a
		// decrement is, so that its guard reads.
		v, sign := negated(bound(args[0]))
		w.set = append(w.set, column+" = "+column+" "+sign+" ?")
		w.setArgs = append(w.setArgs, v)
	default:
		w.setValue(column, args[0])
	}
}

// negated splits -n into n and "-", a negative constant into itself and
// "-"; any other value is added.
func negated(v ssa.Value) (ssa.Value, string) {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.SUB {
			return x.X, "-"
		}
	case *ssa.Const:
		if x.Value != nil && x.Value.Kind() == constant.Int && constant.Sign(x.Value) < 0 {
			return x, "-"
		}
	}
	return v, "+"
}

func (w *writer) setValue(column string, v ssa.Value) {
	text, args := w.operand(v)
	w.set = append(w.set, column+" = "+text)
	w.setArgs = append(w.setArgs, args...)
}

// operand writes a value: a placeholder, or the SQL of a squirrel Expr.
func (w *writer) operand(v ssa.Value) (string, []ssa.Value) {
	if text, args, ok := w.expr(v); ok {
		return text, args
	}
	return "?", []ssa.Value{bound(v)}
}

// expr reads a call of a builder's Expr(sql, args...).
func (w *writer) expr(v ssa.Value) (string, []ssa.Value, bool) {
	call, ok := ssautil.Unwrap(v).(*ssa.Call)
	if !ok {
		return "", nil, false
	}
	obj, _, args := ssautil.Callee(call.Common())
	if obj == nil || obj.Pkg() == nil || obj.Name() != "Expr" || chainExprs[obj.Pkg().Path()] == "" || len(args) == 0 {
		return "", nil, false
	}
	text := w.name(args[0])
	rest, ok := variadic(call.Common(), args[1:])
	if !ok {
		w.known = false
	}
	out := make([]ssa.Value, len(rest))
	for i, a := range rest {
		out[i] = bound(a)
	}
	return "(" + text + ")", out, true
}

// predicate writes one Where: SQL text with arguments, an Expr, a map of
// column comparisons (squirrel's Eq, Lt, …), or an And of those.
func (w *writer) predicate(pred ssa.Value, args []ssa.Value) {
	pred = ssautil.Unwrap(pred)
	if isString(pred.Type()) {
		w.where = append(w.where, "("+w.name(pred)+")")
		for _, a := range args {
			w.whereArgs = append(w.whereArgs, bound(a))
		}
		return
	}
	if text, a, ok := w.expr(pred); ok {
		w.where = append(w.where, text)
		w.whereArgs = append(w.whereArgs, a...)
		return
	}
	op, isMap := chainComparisons[namedIn(pred.Type())]
	if isMap {
		entries, ok := ssautil.MapEntries(pred)
		if !ok {
			w.known = false
			return
		}
		for _, k := range sortedKeys(entries) {
			v := bound(entries[k])
			if _, slice := v.Type().Underlying().(*types.Slice); slice {
				w.known = false // squirrel writes IN (?,?,…) for as many values as it holds
				return
			}
			w.where = append(w.where, k+" "+op+" ?")
			w.whereArgs = append(w.whereArgs, v)
		}
		return
	}
	if chainConjunctions[namedIn(pred.Type())] {
		elems, ok := ssautil.SliceElems(pred)
		if !ok {
			w.known = false
			return
		}
		for _, e := range elems {
			w.predicate(e, nil)
		}
		return
	}
	w.known = false
}

// namedIn names a type as path.Name.
func namedIn(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

func mapArg(args []ssa.Value) (map[string]ssa.Value, bool) {
	if len(args) != 1 {
		return nil, false
	}
	return ssautil.MapEntries(args[0])
}

// bound is a placeholder's value as the checks compare it.
func bound(v ssa.Value) ssa.Value {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	return ssautil.Assigned(v)
}

func (w *writer) text() string {
	var b strings.Builder
	switch w.kind {
	case sqltext.Update:
		b.WriteString("UPDATE " + w.table + " SET " + strings.Join(w.set, ", "))
	case sqltext.Insert, sqltext.Replace:
		verb := "INSERT"
		if w.kind == sqltext.Replace {
			verb = "REPLACE"
		}
		b.WriteString(verb + w.options + " INTO " + w.table + " (" + strings.Join(w.cols, ", ") + ") VALUES (" + strings.Join(w.values, ", ") + ")")
	case sqltext.Delete:
		b.WriteString("DELETE FROM " + w.table)
	case sqltext.Select:
		b.WriteString("SELECT * FROM " + w.table)
	}
	if len(w.where) > 0 {
		b.WriteString(" WHERE " + strings.Join(w.where, " AND "))
	}
	for _, s := range w.suffix {
		b.WriteString(" " + s)
	}
	return b.String()
}

// args are the values in the order of the placeholders text writes.
func (w *writer) args() []ssa.Value {
	var out []ssa.Value
	switch w.kind {
	case sqltext.Update:
		out = append(out, w.setArgs...)
	case sqltext.Insert, sqltext.Replace:
		out = append(out, w.valueArgs...)
	}
	out = append(out, w.whereArgs...)
	return append(out, w.sufArgs...)
}
