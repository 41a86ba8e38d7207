package sqlcall

import (
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/sqltext"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// gorm reads a call of a *gorm.DB method: raw SQL (Exec, Raw), or a finisher
// whose statement is put together from the chain of calls before it.
func (r *Recognizer) gorm(instr ssa.CallInstruction, obj *types.Func, recv ssa.Value, args []ssa.Value) *Call {
	kind, ok := gormFinishers[obj.Name()]
	if !ok || recv == nil || ssautil.RecvName(obj) != "DB" {
		return nil
	}
	ch := walkChain(recv)
	c := &Call{Instr: instr, Lib: "gorm", Method: obj.Name(), Handle: ch.root, InTx: ch.tx, Result: result(instr, nil)}
	if kind == sqltext.Unknown {
		if len(args) == 0 {
			return nil
		}
		c.Text, c.Known = r.QueryText(args[0])
		if c.Known {
			c.Stmt = parse(c.Text)
		}
		if elems, ok := variadic(instr.Common(), args[1:]); ok {
			c.Args, c.Named = bindings(c.Lib, elems)
			if len(c.Args) == 1 && namedValues(c.Args[0].Type()) {
				c.Args, c.Named = nil, c.Args[0]
			}
		}
		return c
	}
	if ch.raw {
		return nil // db.Raw(q).Find(&x) runs q: the Raw call is the SQL call
	}
	b := &builder{r: r, known: true}
	b.st.Kind = kind
	for _, call := range ch.calls {
		b.chainCall(call)
	}
	if !b.finish(instr.Common(), obj.Name(), args) {
		return nil
	}
	if branched(ch.root) {
		b.known = false // q = q.Where(…) on some paths only: the WHERE is not one
	}
	c.Known, c.Stmt = b.known, b.st
	if kind == sqltext.Insert && c.Stmt.OnConflict == "" {
		model := ssautil.Unwrap(args[0]).Type()
		c.Keyed = uniqueTagged(model) || r.refused(c.Stmt.Table, modelColumns(model))
	}
	if !b.argsUnknown {
		c.Args = append(b.setArgs, b.whereArgs...)
	}
	return c
}

// uniqueTagged reports whether the model a Create inserts (a struct, a
// pointer to one, or a slice of either) has a field tagged unique or
// uniqueIndex, or in an index with the unique option: the table gorm
// migrates refuses a second row with the same value. A primary key is not
// enough, since it is usually drawn fresh.
func uniqueTagged(t types.Type) bool {
	st, ok := modelType(t).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		for opt := range strings.SplitSeq(reflect.StructTag(st.Tag(i)).Get("gorm"), ";") {
			name, value, _ := strings.Cut(strings.TrimSpace(opt), ":")
			if strings.EqualFold(name, "unique") || strings.EqualFold(name, "uniqueIndex") ||
				strings.EqualFold(name, "index") && uniqueIndexOption(value) {
				return true
			}
		}
	}
	return false
}

// uniqueIndexOption reports whether the options of a gorm index tag
// (index:idx_name,unique or index:,class:UNIQUE) make it a unique index.
func uniqueIndexOption(value string) bool {
	_, opts, _ := strings.Cut(value, ",")
	for o := range strings.SplitSeq(opts, ",") {
		o = strings.TrimSpace(o)
		if strings.EqualFold(o, "unique") || strings.EqualFold(o, "class:UNIQUE") {
			return true
		}
	}
	return false
}

// chain is the calls between a finisher and the *gorm.DB they start from.
type chain struct {
	root  ssa.Value
	tx    bool
	raw   bool
	calls []*ssa.Call // from the root outwards
}

func walkChain(v ssa.Value) *chain {
	ch := &chain{}
	for range 64 {
		v = Origin(v)
		call, ok := v.(*ssa.Call)
		if !ok {
			break
		}
		obj, recv, _ := ssautil.Callee(call.Common())
		if obj == nil || obj.Pkg() == nil || !isGorm(obj.Pkg().Path()) || recv == nil {
			break
		}
		if obj.Name() == "Begin" {
			ch.tx = true
			break
		}
		if _, ok := gormChain[obj.Name()]; !ok {
			break
		}
		ch.raw = ch.raw || obj.Name() == "Raw"
		ch.calls = append(ch.calls, call)
		v = recv
	}
	ch.root = v
	if p, ok := v.(*ssa.Parameter); ok && transactionParam(p) {
		ch.tx = true
	}
	for i, j := 0, len(ch.calls)-1; i < j; i, j = i+1, j-1 {
		ch.calls[i], ch.calls[j] = ch.calls[j], ch.calls[i]
	}
	return ch
}

// branched reports whether a chain starts at a value that joins paths on
// which different calls of the chain were made (if cond { q = q.Where(…) }).
func branched(root ssa.Value) bool {
	phi, ok := root.(*ssa.Phi)
	if !ok {
		return false
	}
	for _, e := range phi.Edges {
		if len(walkChain(e).calls) > 0 {
			return true
		}
	}
	return false
}

// transactionParam reports whether p is the handle a transaction runner
// passes to the function literal it is given: the *gorm.DB of
// db.Transaction, the Session of go-zero's conn.TransactCtx.
func transactionParam(p *ssa.Parameter) bool {
	fn := p.Parent()
	if fn.Parent() == nil || !slices.Contains(fn.Params, p) {
		return false
	}
	vals := []ssa.Value{fn}
	for _, ref := range *fn.Referrers() {
		if mc, ok := ref.(*ssa.MakeClosure); ok {
			vals = append(vals, mc)
		}
	}
	for _, v := range vals {
		for _, ref := range *v.Referrers() {
			call, ok := ref.(ssa.CallInstruction)
			if !ok {
				continue
			}
			obj, _, args := ssautil.Callee(call.Common())
			if obj != nil && obj.Pkg() != nil && runsTransaction(obj) && slices.Contains(args, v) {
				return true
			}
		}
	}
	return false
}

// builder puts a gorm statement together. Placeholders are numbered as gorm
// writes them: the SET values first, then the WHERE arguments.
type builder struct {
	r           *Recognizer
	st          sqltext.Stmt
	known       bool
	argsUnknown bool
	setArgs     []ssa.Value
	whereArgs   []ssa.Value
	model       ssa.Value // Model's argument, else the finisher's value
	table       string
	tableSet    bool
}

func (b *builder) chainCall(call *ssa.Call) {
	obj, _, args := ssautil.Callee(call.Common())
	name := obj.Name()
	if gormChain[name] {
		if elems, ok := variadic(call.Common(), args); !ok || len(elems) > 1 {
			b.argsUnknown = true
		}
		return
	}
	switch name {
	case "Where", "Not", "Or":
		elems, ok := variadic(call.Common(), args)
		if !ok || len(elems) == 0 {
			b.known, b.argsUnknown, b.st.WhereOpaque, b.st.HasWhere = false, true, true, true
			return
		}
		b.where(elems[0], elems[1:], name != "Where")
	case "Model":
		if len(args) == 1 {
			b.model = ssautil.Unwrap(args[0])
		}
	case "Table":
		b.tableSet = true
		if len(args) == 0 {
			return
		}
		if t := b.tableMethod(args[0]); t != "" {
			b.table = t
			return
		}
		text, ok := b.r.QueryText(args[0])
		if !ok {
			b.known = false
			return
		}
		b.table = tableName(text)
	case "Clauses":
		if elems, ok := variadic(call.Common(), args); ok {
			for _, e := range elems {
				b.clause(ssautil.Unwrap(e))
			}
		}
	case "Scopes":
		// A scope can add anything to the statement.
		b.known, b.argsUnknown, b.st.WhereOpaque = false, true, true
	}
}

// tableMethod reads Table(order.TableName()): the model's table, as gorm
// names it for the model itself.
func (b *builder) tableMethod(v ssa.Value) string {
	call, ok := ssautil.Unwrap(v).(*ssa.Call)
	if !ok {
		return ""
	}
	obj, recv, _ := ssautil.Callee(call.Common())
	if obj == nil || obj.Name() != "TableName" || recv == nil {
		return ""
	}
	return b.r.modelTable(recv.Type())
}

// where adds one condition, in any form gorm's BuildCondition takes: a
// fragment with ? placeholders, a bare column name with one value, a map of
// column values; other forms (structs, clause expressions) make the WHERE
// opaque. Conditions from Not and Or are counted for the placeholders but
// make the WHERE opaque.
func (b *builder) where(query ssa.Value, args []ssa.Value, negated bool) {
	b.st.HasWhere = true
	b.st.WhereOpaque = b.st.WhereOpaque || negated
	args, _ = bindings("gorm", args)
	query = ssautil.Unwrap(query)
	if isString(query.Type()) {
		text, ok := b.r.QueryText(query)
		if !ok {
			b.known, b.argsUnknown, b.st.WhereOpaque = false, true, true
			return
		}
		if len(args) == 1 && !strings.ContainsAny(strings.TrimSpace(text), "? @") {
			b.eq(text, args[0], negated)
			return
		}
		b.fragment(text, args, negated)
		return
	}
	if entries, ok := ssautil.MapEntries(query); ok && len(args) == 0 {
		for _, k := range sortedKeys(entries) {
			v := entries[k]
			if mi, ok := v.(*ssa.MakeInterface); ok {
				v = mi.X
			}
			b.eq(k, v, negated)
		}
		return
	}
	if c, ok := query.(*ssa.Const); ok && c.Value == nil {
		return // Where(nil) adds nothing
	}
	b.argsUnknown, b.st.WhereOpaque = true, true
}

// eq adds column = value; IN for a slice.
func (b *builder) eq(column string, v ssa.Value, negated bool) {
	v = ssautil.Assigned(v)
	b.whereArgs = append(b.whereArgs, v)
	if negated {
		return
	}
	op := "="
	if _, ok := v.Type().Underlying().(*types.Slice); ok {
		op = "IN"
	}
	b.st.Where = append(b.st.Where, sqltext.Cond{Column: columnName(column), Op: op,
		Operand: sqltext.Operand{Kind: sqltext.OpPlaceholder, Text: "?", Placeholder: len(b.whereArgs)}})
}

// fragment adds a WHERE fragment: it reads as the WHERE of a SELECT would.
func (b *builder) fragment(text string, args []ssa.Value, negated bool) {
	st := sqltext.Parse("SELECT 1 FROM t WHERE " + text)
	if st.Placeholders != len(args) || strings.Contains(text, "@") {
		b.argsUnknown = true // named arguments, or a struct or map binding several
	}
	base := len(b.whereArgs)
	b.whereArgs = append(b.whereArgs, args...)
	if negated {
		return
	}
	b.st.WhereOpaque = b.st.WhereOpaque || st.WhereOpaque
	for _, c := range st.Where {
		if c.Operand.Kind == sqltext.OpPlaceholder {
			c.Operand.Placeholder += base
		}
		b.st.Where = append(b.st.Where, c)
	}
}

// clause reads the clause.Expression values given to Clauses.
func (b *builder) clause(e ssa.Value) {
	fields, _ := ssautil.StructFields(e)
	str := func(name string) string {
		s, _ := ssautil.ConstString(fields[name])
		return strings.ToUpper(s)
	}
	switch clauseName(e.Type()) {
	case "OnConflict":
		b.st.OnConflict = "update"
		if c, ok := fields["DoNothing"].(*ssa.Const); ok && c.Value != nil && c.Value.ExactString() == "true" {
			b.st.OnConflict = "nothing"
		}
	case "Insert":
		if str("Modifier") == "IGNORE" {
			b.st.OnConflict = "nothing"
		}
	case "Returning":
		b.st.Returning = true
	case "Locking":
		if s := str("Strength"); s != "" {
			b.st.Locking = "FOR " + s
		}
		b.st.SkipLocked = str("Options") == "SKIP LOCKED"
		b.st.NoWait = str("Options") == "NOWAIT"
	case "Where", "Expr", "NamedExpr", "Eq", "Neq", "IN", "Gt", "Gte", "Lt", "Lte", "Like", "OrConditions", "AndConditions", "NotConditions":
		b.argsUnknown, b.st.WhereOpaque, b.st.HasWhere = true, true, true
	}
}

func clauseName(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != gormPath+"/clause" {
		return ""
	}
	return n.Obj().Name()
}

// finish reads the finisher's own arguments; false when they are not what
// gorm's signature promises.
func (b *builder) finish(c *ssa.CallCommon, name string, args []ssa.Value) bool {
	if len(args) == 0 {
		return false
	}
	if (name == "Update" || name == "UpdateColumn") && c.Signature().Variadic() {
		// gorm v1: Update(attrs ...interface{}), a column and its value or
		// one map or struct.
		attrs, ok := variadic(c, args)
		if !ok || len(attrs) == 0 {
			return false
		}
		if args = attrs; len(attrs) == 1 {
			name = "Updates"
		}
	}
	value := ssautil.Unwrap(args[0])
	switch name {
	case "Update", "UpdateColumn":
		if len(args) != 2 {
			return false
		}
		col, ok := b.r.QueryText(args[0])
		if !ok {
			b.known, b.argsUnknown = false, true
		} else {
			b.set(col, args[1])
		}
		value = nil
	case "Updates", "UpdateColumns":
		entries, ok := ssautil.MapEntries(value)
		if !ok {
			b.setFromValue() // gorm writes the struct's non-zero fields
			break
		}
		for _, k := range sortedKeys(entries) {
			b.set(k, entries[k])
		}
		value = nil
	case "Save":
		b.setFromValue()
	case "Delete", "First", "Take", "Last", "Find":
		if conds, ok := variadic(c, args[1:]); !ok {
			b.known, b.argsUnknown, b.st.WhereOpaque, b.st.HasWhere = false, true, true, true
		} else if len(conds) > 0 {
			b.inline(conds)
		}
	}
	if b.model == nil {
		b.model = value
	}
	b.st.Table = b.table
	if !b.tableSet && b.model != nil {
		b.st.Table = b.r.modelTable(b.model.Type())
	}
	b.st.Placeholders = len(b.setArgs) + len(b.whereArgs)
	for i := range b.st.Where {
		if b.st.Where[i].Operand.Kind == sqltext.OpPlaceholder {
			b.st.Where[i].Operand.Placeholder += len(b.setArgs)
		}
	}
	return true
}

// setFromValue notes a SET list a Go value decides. With no WHERE of its own
// the statement is still known: it writes by primary key whatever the row
// holds. A WHERE, which may pin what the value changes, makes it unknown.
func (b *builder) setFromValue() {
	b.argsUnknown = true
	if b.st.HasWhere && !byKeyOnly(b.st) {
		b.known = false
		return
	}
	b.st.SetFromValue = true
}

// byKeyOnly reports a WHERE that names the row by gorm's default primary key
// alone (Where("id = ?", o.ID)): it pins none of the columns a value writes.
func byKeyOnly(st sqltext.Stmt) bool {
	return !st.WhereOpaque && len(st.Where) == 1 && st.Where[0].Column == "id" && st.Where[0].Op == "="
}

// inline reads the conditions a finisher takes after its value:
// Delete(&Order{}, "id = ?", id), First(&o, id).
func (b *builder) inline(conds []ssa.Value) {
	first := ssautil.Unwrap(conds[0])
	if isString(first.Type()) {
		if s, ok := ssautil.ConstString(first); !ok || !isNumber(s) {
			b.where(conds[0], conds[1:], false)
			return
		}
	}
	if len(conds) == 1 && primaryKey(first.Type()) {
		// A primary key value: gorm's default primary key column is id.
		b.st.HasWhere = true
		b.eq("id", first, false)
		return
	}
	b.where(conds[0], conds[1:], false)
}

// set adds column = value to the SET list; a gorm.Expr value is SQL.
func (b *builder) set(column string, v ssa.Value) {
	column = columnName(column)
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	if call, ok := v.(*ssa.Call); ok && isFunc(call, gormPath, "", "Expr") && len(call.Call.Args) == 2 {
		text, ok := b.r.QueryText(call.Call.Args[0])
		exprArgs, ok2 := ssautil.SliceElems(call.Call.Args[1])
		if !ok || !ok2 {
			b.known, b.argsUnknown = false, true
			b.st.Set = append(b.st.Set, sqltext.Assign{Column: column, Value: sqltext.Operand{Kind: sqltext.OpExpr}})
			return
		}
		exprArgs, _ = bindings("gorm", exprArgs)
		st := sqltext.Parse("UPDATE t SET " + column + " = " + text)
		if len(st.Set) != 1 || st.Placeholders != len(exprArgs) {
			b.known, b.argsUnknown = false, true
			return
		}
		a := st.Set[0]
		if a.Value.Kind == sqltext.OpPlaceholder {
			a.Value.Placeholder += len(b.setArgs)
		}
		b.setArgs = append(b.setArgs, exprArgs...)
		b.st.Set = append(b.st.Set, a)
		return
	}
	if clauseName(v.Type()) != "" {
		b.known, b.argsUnknown = false, true
	}
	b.setArgs = append(b.setArgs, ssautil.Assigned(v))
	b.st.Set = append(b.st.Set, sqltext.Assign{Column: column,
		Value: sqltext.Operand{Kind: sqltext.OpPlaceholder, Text: "?", Placeholder: len(b.setArgs)}})
}

// namedValues reports whether a raw statement's only value binds @name
// placeholders: a map, or database/sql's NamedArg.
func namedValues(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Map); ok {
		return true
	}
	return ssautil.IsNamed(t, stdPath, "NamedArg")
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// primaryKey reports whether a condition value of type t is a primary key or
// a list of them, as gorm reads a number, a string of digits or a slice.
func primaryKey(t types.Type) bool {
	if s, ok := t.Underlying().(*types.Slice); ok {
		t = s.Elem()
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsString) != 0
}

// columnName is a column as sqltext reports it: unqualified, unquoted,
// lower-cased.
func columnName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return strings.ToLower(strings.Trim(s, "`\"[]"))
}

// tableName reads the table of Table("orders o") or Table("public.orders").
func tableName(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return columnName(f[0])
}

func sortedKeys(m map[string]ssa.Value) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// runsTransaction reports whether obj runs the function it is given in a
// transaction it begins and commits.
func runsTransaction(obj *types.Func) bool {
	switch path := obj.Pkg().Path(); {
	case isGorm(path):
		return obj.Name() == "Transaction"
	case path == goZeroSqlxPath:
		return obj.Name() == "Transact" || obj.Name() == "TransactCtx"
	}
	return false
}
