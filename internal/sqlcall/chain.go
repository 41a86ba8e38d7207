package sqlcall

import (
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
	partStart   part = iota + 1 // starts a statement of the row's kind; its first argument names the table, if a string
	partTable                   // names the table
	partSet                     // column, value
	partSetMap                  // a map of column to value
	partWhere                   // a predicate, with arguments
	partColumns                 // INSERT columns
	partValues                  // one row of INSERT values
	partSuffix                  // SQL text after the statement, with arguments
	partOptions                 // INSERT options: IGNORE
	partHandle                  // the database handle it runs on (RunWith)
	partInert                   // changes nothing a check asks about (ORDER BY, LIMIT, placeholders)
	partRun                     // runs the statement
)

// chainRow is one builder call: its function and what it adds.
type chainRow struct {
	path, recv, name string
	part             part
	kind             sqltext.Kind // for partStart
	lib              string
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
	row := chainRows[key{obj.Pkg().Path(), ssautil.RecvName(obj), obj.Name()}]
	if row == nil || row.part != partRun || recv == nil {
		return nil
	}
	c := &Call{Instr: instr, Lib: row.lib, Method: obj.Name(), Result: result(instr, nil)}
	calls, root, ok := walkBuilder(recv)
	w := &writer{r: r, known: ok}
	for _, cc := range calls {
		w.add(cc)
	}
	if w.handle != nil {
		c.Handle = Origin(w.handle)
		c.InTx = isTx(w.handle.Type()) || isTx(c.Handle.Type())
	} else {
		c.Handle = root
	}
	if w.kind == sqltext.Unknown {
		return c
	}
	c.Text = w.text()
	c.Stmt = parse(c.Text)
	c.Known = w.known && c.Stmt.Kind == w.kind
	if c.Known {
		c.Args = w.args()
		c.Keyed = c.Stmt.Kind == sqltext.Insert && c.Stmt.OnConflict == "" && r.refused(c.Stmt.Table, c.Stmt.Columns)
	}
	return c
}

// walkBuilder returns the chain's calls from its start outwards, the value it
// starts from, and whether the chain is one straight line of rows.
func walkBuilder(v ssa.Value) (calls []chainCall, root ssa.Value, ok bool) {
	ok = true
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
		row := chainRows[key{obj.Pkg().Path(), ssautil.RecvName(obj), obj.Name()}]
		if row == nil || row.part == partRun {
			break
		}
		calls = append(calls, chainCall{row: row, call: call, args: args})
		if row.part == partStart || recv == nil {
			v = recv
			break
		}
		v = recv
	}
	for i, j := 0, len(calls)-1; i < j; i, j = i+1, j-1 {
		calls[i], calls[j] = calls[j], calls[i]
	}
	if len(calls) == 0 || calls[0].row.part != partStart {
		ok = false
	}
	return calls, v, ok
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
}

func (w *writer) add(cc chainCall) {
	args := cc.args
	switch cc.row.part {
	case partStart:
		w.kind = cc.row.kind
		if len(args) > 0 && isString(args[0].Type()) {
			w.table = w.name(args[0])
		}
	case partTable:
		if len(args) > 0 {
			w.table = w.name(args[0])
		}
	case partSet:
		if len(args) == 2 {
			w.setValue(w.name(args[0]), args[1])
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
	}
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
