package sqlcall

import (
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/schema"
	"github.com/lockvet/lockvet/internal/sqltext"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// Call is one call that runs SQL.
type Call struct {
	Instr  ssa.CallInstruction
	Lib    string // "database/sql", "sqlx", "pgx" or "gorm"
	Method string // ExecContext, Exec, QueryRow, Update, …
	// Handle is the *sql.DB, *sql.Tx, pgx.Tx, … the statement runs on, looking
	// through embedding (an *sqlx.DB, not the *sql.DB inside it), variables
	// assigned once and closures; for a prepared statement, the handle that
	// prepared it; for gorm, the root *gorm.DB of the chain.
	Handle ssa.Value
	// InTx reports that Handle is a transaction: *sql.Tx, *sqlx.Tx, pgx.Tx, a
	// gorm DB from Begin or the one db.Transaction passes to its callback.
	InTx bool
	// Text is the statement text, each fmt.Sprintf verb that is not a constant
	// replaced by an identifier __hole1__, __hole2__, …; "" when unknown and
	// for gorm builder calls, whose text gorm writes at run time.
	Text string
	// Known reports that Stmt describes the whole statement: its text was read,
	// or for a gorm builder call, every SQL fragment of its chain was and its
	// SET list does not come from a Go struct (Updates(order), Save).
	Known bool
	// Stmt is the parsed Text; for a gorm builder call, put together from the
	// chain (see the package documentation).
	Stmt sqltext.Stmt
	// Args are the placeholder arguments in order, Args[0] binding $1 or the
	// first ?, without the interface boxing of `args ...any`. Nil when unknown:
	// passed as a slice built elsewhere, or bound by name (see Named).
	Args []ssa.Value
	// Named is the struct or map whose fields or keys bind the :name or @name
	// placeholders: sqlx's Named* calls, pgx.NamedArgs; nil otherwise.
	Named ssa.Value
	// Keyed reports an INSERT that supplies the table's own key, so that a
	// second insert of the same row fails: one goctl wrote for a table whose
	// key is not auto-increment, a gorm Create of a model with a unique field.
	Keyed bool
	// Result is the value that shows the outcome: the sql.Result, the
	// pgconn.CommandTag, the rows, the *gorm.DB, or the destination of sqlx
	// Get and Select. Nil when the code drops it, and for defer and go.
	Result ssa.Value
}

// Recognizer finds the SQL calls of one package.
type Recognizer struct {
	// TextOf, when set, gives the text returned by a function, or held by a
	// package-level variable, of another package, as in
	// db.Exec(ctx, queries.UpdateOrder(), …). The caller keeps what it knows
	// about other packages, typically as facts it exports with ReturnedText.
	TextOf func(types.Object) (string, bool)

	pkg     *ssa.Package
	schema  func() *schema.Schema
	inits   map[*ssa.Global]ssa.Value
	embeds  map[string]string
	returns map[*ssa.Function]*returned
	fields  func() map[*types.Var]string
}

// NewRecognizer returns a Recognizer for the package pass analyses, in the SSA
// form pkg whose functions are funcs.
func NewRecognizer(pass *analysis.Pass, pkg *ssa.Package, funcs []*ssa.Function) *Recognizer {
	file := ""
	if len(pass.Files) > 0 {
		file = pass.Fset.File(pass.Files[0].Pos()).Name()
	}
	return &Recognizer{
		pkg:     pkg,
		schema:  sync.OnceValue(func() *schema.Schema { return schema.ForFile(file) }),
		inits:   ssautil.GlobalInits(pkg),
		embeds:  ssautil.EmbeddedStrings(pass),
		returns: make(map[*ssa.Function]*returned),
		fields:  sync.OnceValue(func() map[*types.Var]string { return ssautil.FieldStrings(pkg.Pkg, funcs) }),
	}
}

// Recognize returns the SQL call instr makes, or nil.
func (r *Recognizer) Recognize(instr ssa.CallInstruction) *Call {
	obj, recv, args := ssautil.Callee(instr.Common())
	if obj == nil || obj.Pkg() == nil {
		return nil
	}
	if isGorm(obj.Pkg().Path()) {
		return r.gorm(instr, obj, recv, args)
	}
	if c := r.chain(instr, obj, recv); c != nil {
		return c
	}
	m := methods[key{obj.Pkg().Path(), ssautil.RecvName(obj), obj.Name()}]
	if m == nil {
		m = querySignature(obj)
	}
	if m == nil {
		return nil
	}
	c := &Call{Instr: instr, Lib: m.lib, Method: obj.Name()}
	args = ssautil.DropContexts(args)
	handle := recv
	if recv == nil {
		if len(args) == 0 {
			return nil
		}
		handle, args = ssautil.Unwrap(args[0]), args[1:]
	}
	var dest ssa.Value
	if m.dest {
		if len(args) == 0 {
			return nil
		}
		dest, args = ssautil.Unwrap(args[0]), args[1:]
	}
	var text ssa.Value
	if m.stmt {
		c.Text, c.Known, handle = r.prepared(handle)
	} else {
		if len(args) == 0 {
			return nil
		}
		c.Text, c.Known = r.QueryText(args[0])
		text = args[0]
		args = args[1:]
	}
	c.Handle = Origin(handle)
	c.InTx = isTx(handle.Type()) || isTx(c.Handle.Type()) || goZeroTx(c.Handle)
	if m.named {
		if len(args) == 1 {
			c.Named = ssautil.Unwrap(args[0])
		}
	} else if elems, ok := variadic(instr.Common(), args); ok {
		c.Args, c.Named = bindings(m.lib, elems)
	}
	if c.Known {
		c.Stmt = parse(c.Text)
		c.Keyed = c.Stmt.Kind == sqltext.Insert && c.Stmt.OnConflict == "" &&
			(text != nil && r.keyedInsert(text) || r.refused(c.Stmt.Table, c.Stmt.Columns))
	}
	c.Result = result(instr, dest)
	return c
}

// refused reports whether the module's schema refuses a second INSERT into
// table of the columns given.
func (r *Recognizer) refused(table string, columns []string) bool {
	if r.schema == nil {
		return false
	}
	_, ok := r.schema().Refuses(table, columns)
	return ok
}

// variadic spells out the arguments of a call whose last parameter is
// variadic; ok is false when they come as a slice built elsewhere.
func variadic(c *ssa.CallCommon, args []ssa.Value) ([]ssa.Value, bool) {
	if !c.Signature().Variadic() || len(args) == 0 {
		return args, true
	}
	elems, ok := ssautil.SliceElems(args[len(args)-1])
	if !ok {
		return nil, false
	}
	return append(args[:len(args)-1:len(args)-1], elems...), true
}

// bindings strips the interface boxing from arguments, looks through
// variables assigned once, and drops the options pgx reads from the front of
// its argument list: a query mode or result formats bind no placeholder,
// pgx.NamedArgs bind @name ones.
func bindings(lib string, args []ssa.Value) (positional []ssa.Value, named ssa.Value) {
	out := make([]ssa.Value, 0, len(args))
	for _, a := range args {
		if mi, ok := a.(*ssa.MakeInterface); ok {
			a = mi.X
		}
		out = append(out, ssautil.Assigned(a))
	}
	if lib != "pgx" {
		return out, nil
	}
	for len(out) > 0 {
		switch pgxType(out[0].Type()) {
		case "QueryExecMode", "QueryResultFormats", "QueryResultFormatsByOID":
			out = out[1:]
			continue
		case "NamedArgs", "StrictNamedArgs":
			return nil, out[0]
		}
		break
	}
	return out, nil
}

func pgxType(t types.Type) string {
	for _, p := range pgxPaths {
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == p {
			return n.Obj().Name()
		}
	}
	return ""
}

// result finds the value that shows a call's outcome: the call's own value,
// or its first result when it returns more; dest when the rows land there.
func result(instr ssa.CallInstruction, dest ssa.Value) ssa.Value {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return nil
	}
	if dest != nil {
		return dest
	}
	switch call.Common().Signature().Results().Len() {
	case 0:
		return nil
	case 1:
		return call
	}
	if ex := ssautil.Extract(call, 0); ex != nil {
		return ex
	}
	return nil
}

// prepared follows a prepared statement back to the call that prepared it,
// through tx.Stmt(stmt) rebinding, and returns its text and the handle it runs
// on. Statements kept in struct fields or package variables are not followed.
func (r *Recognizer) prepared(stmt ssa.Value) (text string, known bool, handle ssa.Value) {
	v := stmt
	for range 8 {
		v = Origin(ssautil.Unwrap(v))
		var call *ssa.Call
		switch x := v.(type) {
		case *ssa.Extract:
			if x.Index == 0 {
				call, _ = x.Tuple.(*ssa.Call)
			}
		case *ssa.Call:
			call = x
		}
		if call == nil {
			break
		}
		obj, recv, args := ssautil.Callee(call.Common())
		if obj == nil || obj.Pkg() == nil {
			break
		}
		rebind, ok := prepares[key{obj.Pkg().Path(), ssautil.RecvName(obj), obj.Name()}]
		if !ok {
			break
		}
		args = ssautil.DropContexts(args)
		if recv == nil && len(args) > 0 {
			recv, args = ssautil.Unwrap(args[0]), args[1:]
		}
		if len(args) != 1 {
			break
		}
		if handle == nil {
			handle = Origin(recv)
		}
		if rebind {
			v = args[0]
			continue
		}
		text, known = r.QueryText(args[0])
		return text, known, handle
	}
	if handle == nil {
		handle = stmt
	}
	return "", false, handle
}

// Origin looks through what stands between a handle and where it was made:
// loads of embedded fields (db.ExecContext on an *sqlx.DB calls the promoted
// (*sql.DB).ExecContext on db.DB) and of variables assigned once. Two calls
// on one handle then have the same Handle.
func Origin(v ssa.Value) ssa.Value {
	for range 8 {
		v = ssautil.Assigned(v)
		switch x := v.(type) {
		case *ssa.UnOp:
			fa, ok := x.X.(*ssa.FieldAddr)
			if !ok || x.Op != token.MUL || !ssautil.Embedded(fa.X.Type(), fa.Field) {
				return v
			}
			v = fa.X
		case *ssa.Field:
			if !ssautil.Embedded(x.X.Type(), x.Field) {
				return v
			}
			v = x.X
		default:
			return v
		}
	}
	return v
}

func isTx(t types.Type) bool {
	n, ok := types.Unalias(ssautil.Deref(t)).(*types.Named)
	return ok && n.Obj().Pkg() != nil && txTypes[n.Obj().Pkg().Path()] == n.Obj().Name()
}

var (
	stdQuery = &method{lib: stdPath}
	pgxQuery = &method{lib: "pgx"}
)

// querySignature recognises the interfaces and wrappers code declares over a
// handle, such as sqlc's DBTX: a method taking ([ctx,] string, ...any) whose
// first result is database/sql's Result, *Rows or *Row, or pgx's CommandTag,
// Rows or Row. The types say it runs SQL whatever implements it.
func querySignature(obj *types.Func) *method {
	sig := obj.Type().(*types.Signature)
	params := sig.Params()
	if sig.Recv() == nil || !sig.Variadic() || sig.Results().Len() == 0 {
		return nil
	}
	i := 0
	if params.Len() > 0 && ssautil.IsNamed(params.At(0).Type(), "context", "Context") {
		i = 1
	}
	if params.Len() != i+2 || !types.Identical(params.At(i).Type(), types.Typ[types.String]) {
		return nil
	}
	if s, ok := params.At(i + 1).Type().(*types.Slice); !ok || !types.IsInterface(s.Elem()) {
		return nil
	}
	res := sig.Results().At(0).Type()
	for _, name := range []string{"Result", "Rows", "Row"} {
		if ssautil.IsNamed(res, stdPath, name) {
			return stdQuery
		}
	}
	for _, p := range []string{"github.com/jackc/pgx/v5/pgconn", "github.com/jackc/pgconn"} {
		if ssautil.IsNamed(res, p, "CommandTag") {
			return pgxQuery
		}
	}
	if name := pgxType(res); name == "Rows" || name == "Row" {
		return pgxQuery
	}
	return nil
}

// parse reads a statement's text. In a template whose holes stand where a
// condition could (fmt.Sprintf("UPDATE %s SET %s %s", …), as ORMs build
// them), a WHERE lockvet does not see may be there: the condition is opaque,
// not absent.
func parse(text string) sqltext.Stmt {
	st := sqltext.Parse(text)
	if !st.HasWhere && st.Kind != sqltext.Insert && st.Kind.Writes() && strings.Contains(text, "__hole") {
		st.HasWhere, st.WhereOpaque = true, true
	}
	return st
}

// IsTx reports whether v is a transaction handle: a *sql.Tx, sqlx's, pgx's
// or bun's Tx, a gorm DB from Begin or the one db.Transaction passes to its
// callback, or the Session go-zero's TransactCtx passes to its callback.
func IsTx(v ssa.Value) bool {
	v = Origin(ssautil.Unwrap(v))
	if isTx(v.Type()) {
		return true
	}
	n, ok := types.Unalias(ssautil.Deref(v.Type())).(*types.Named)
	switch {
	case !ok || n.Obj().Pkg() == nil:
	case isGorm(n.Obj().Pkg().Path()):
		return walkChain(v).tx
	case n.Obj().Pkg().Path() == goZeroSqlxPath:
		return goZeroTx(v)
	}
	return false
}

// goZeroTx reports whether v is the Session go-zero's TransactCtx passes to
// its callback: the type is the same as a connection's.
func goZeroTx(v ssa.Value) bool {
	p, ok := v.(*ssa.Parameter)
	return ok && ssautil.IsNamed(p.Type(), goZeroSqlxPath, "Session") && transactionParam(p)
}
