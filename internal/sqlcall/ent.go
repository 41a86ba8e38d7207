package sqlcall

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/sqltext"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// ent writes its builders into the program (client.Order.UpdateOneID(id)
// .SetStatus(s).Where(order.StatusEQ(p)).Save(ctx)), so they are rows by
// their shape rather than by path: a method of <Entity>Client,
// <Entity>Update, <Entity>UpdateOne, <Entity>Create, <Entity>Delete or
// <Entity>DeleteOne in a package that imports ent. Columns and the table are
// the constants ent generates beside the entity (order.FieldStatus,
// order.Table), or ent's default snake-case names when that package is out
// of sight.

const entPath = "entgo.io/ent"

// entBuilders are the builder types by suffix, longest first.
var entBuilders = []string{"UpdateOne", "Update", "Create", "DeleteOne", "Delete", "Client"}

// entRow returns the row of an ent builder method, or nil.
func entRow(obj *types.Func) *chainRow {
	pkg := obj.Pkg()
	recv := ssautil.RecvName(obj)
	if recv == "" || !importsEnt(pkg) {
		return nil
	}
	for _, suffix := range entBuilders {
		entity, ok := strings.CutSuffix(recv, suffix)
		if !ok || entity == "" || pkg.Scope().Lookup(entity+"Mutation") == nil {
			continue
		}
		row := chainRow{path: pkg.Path(), recv: recv, name: obj.Name(), lib: "ent"}
		fields := entFields(pkg, entity)
		if ok := entPart(&row, suffix, obj.Name(), fields); !ok {
			return nil
		}
		if row.part == partStart || row.part == partStartID {
			row.table = fields.table
		}
		row.entOne = suffix == "UpdateOne" || suffix == "DeleteOne"
		return &row
	}
	return nil
}

func importsEnt(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == entPath || strings.HasPrefix(imp.Path(), entPath+"/") {
			return true
		}
	}
	return false
}

// entPart fills in what a method of a builder of that suffix adds.
func entPart(row *chainRow, suffix, name string, fields entColumns) bool {
	if suffix == "Client" {
		starts := map[string]sqltext.Kind{"Update": sqltext.Update, "Create": sqltext.Insert, "Delete": sqltext.Delete}
		byID := map[string]sqltext.Kind{"UpdateOneID": sqltext.Update, "DeleteOneID": sqltext.Delete,
			"UpdateOne": sqltext.Update, "DeleteOne": sqltext.Delete}
		if k, ok := starts[name]; ok {
			row.part, row.kind = partStart, k
			return true
		}
		if k, ok := byID[name]; ok {
			row.part, row.kind, row.column = partStartID, k, "id"
			row.idFromModel = !strings.HasSuffix(name, "ID")
			return true
		}
		return false
	}
	switch name {
	case "Save", "SaveX", "Exec", "ExecX":
		row.part = partRun
		return true
	case "Where":
		row.part = partEntWhere
		return suffix != "Create"
	case "Select":
		row.part = partInert
		return true
	}
	for _, verb := range []struct {
		prefix string
		part   part
	}{{"SetNillable", partSet}, {"Set", partSet}, {"Add", partAdd}, {"Clear", partClear}} {
		field, ok := strings.CutPrefix(name, verb.prefix)
		if !ok || field == "" {
			continue
		}
		col, ok := fields.column(field)
		if !ok || suffix == "Create" && verb.part != partSet {
			return false
		}
		row.part, row.column = verb.part, col
		return true
	}
	return false
}

// entColumns are an entity's table and columns, by Go field name.
type entColumns struct {
	table  string
	fields map[string]string // nil when the entity's package is out of sight
}

func (e entColumns) column(field string) (string, bool) {
	if e.fields != nil {
		c, ok := e.fields[field]
		return c, ok
	}
	if strings.HasSuffix(field, "IDs") || strings.HasSuffix(field, "Edges") {
		return "", false // an edge, not a column
	}
	return snake(field), true
}

// entFields finds the entity's package (ent/<entity>) among those pkg
// imports, and reads its Table and Field<Name> constants.
func entFields(pkg *types.Package, entity string) entColumns {
	out := entColumns{table: plural(snake(entity))}
	want := pkg.Path() + "/" + strings.ToLower(entity)
	var find func(p *types.Package, depth int) *types.Package
	find = func(p *types.Package, depth int) *types.Package {
		if depth > 2 {
			return nil
		}
		for _, imp := range p.Imports() {
			if imp.Path() == want {
				return imp
			}
		}
		for _, imp := range p.Imports() {
			if strings.HasPrefix(imp.Path(), pkg.Path()+"/") {
				if found := find(imp, depth+1); found != nil {
					return found
				}
			}
		}
		return nil
	}
	if ep := find(pkg, 0); ep != nil {
		return entityColumns(ep)
	}
	return out
}

// entityColumns reads an entity package's constants.
func entityColumns(ep *types.Package) entColumns {
	out := entColumns{fields: map[string]string{}}
	scope := ep.Scope()
	for _, n := range scope.Names() {
		c, ok := scope.Lookup(n).(*types.Const)
		if !ok || c.Val().Kind() != constant.String {
			continue
		}
		v := constant.StringVal(c.Val())
		switch {
		case n == "Table":
			out.table = v
		case strings.HasPrefix(n, "Field") && len(n) > len("Field"):
			out.fields[strings.TrimPrefix(n, "Field")] = v
		}
	}
	return out
}

// entOps are the predicate suffixes ent generates, longest first, with the
// SQL each writes.
var entOps = []struct{ suffix, sql string }{
	{"NotNil", " IS NOT NULL"}, {"IsNil", " IS NULL"}, {"NotIn", " NOT IN (?)"}, {"In", " IN (?)"},
	{"NEQ", " <> ?"}, {"GTE", " >= ?"}, {"LTE", " <= ?"}, {"EQ", " = ?"}, {"GT", " > ?"}, {"LT", " < ?"},
	{"", " = ?"},
}

// entWhere writes one predicate of an entity (order.StatusEQ(s),
// order.ID(id), order.And(…)) as SQL; any other makes the statement unknown.
func (w *writer) entWhere(v ssa.Value) {
	call, ok := ssautil.Unwrap(v).(*ssa.Call)
	if !ok {
		w.known = false
		return
	}
	obj, _, args := ssautil.Callee(call.Common())
	if obj == nil || obj.Pkg() == nil {
		w.known = false
		return
	}
	if obj.Name() == "And" {
		preds, ok := variadic(call.Common(), args)
		if !ok {
			w.known = false
			return
		}
		for _, p := range preds {
			w.entWhere(p)
		}
		return
	}
	cols := entityColumns(obj.Pkg())
	for _, op := range entOps {
		field, ok := strings.CutSuffix(obj.Name(), op.suffix)
		if !ok {
			continue
		}
		col, ok := cols.fields[field]
		if !ok {
			continue
		}
		w.where = append(w.where, col+op.sql)
		switch {
		case !strings.Contains(op.sql, "?"):
		case len(args) == 1 && !call.Common().Signature().Variadic():
			w.whereArgs = append(w.whereArgs, bound(args[0]))
		default:
			w.argsUnknown = true // In(vs...): as many values as it holds
		}
		return
	}
	w.known = false
}

// entTx reports whether an ent builder's client is a field of ent's Tx
// (tx.Order.UpdateOneID(…)): its statements run in that transaction.
func entTx(root ssa.Value) bool {
	load, ok := ssautil.Unwrap(root).(*ssa.UnOp)
	if !ok {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	n, ok := types.Unalias(ssautil.Deref(fa.X.Type())).(*types.Named)
	return ok && n.Obj().Name() == "Tx" && n.Obj().Pkg() != nil && importsEnt(n.Obj().Pkg())
}

// entResult is what shows an ent statement's outcome: the count Update and
// Delete return, or for UpdateOne and DeleteOne, which fail with a
// NotFoundError when no row matches, the error. Nil when it shows none
// (Update's Exec).
func entResult(instr ssa.CallInstruction, row *chainRow) ssa.Value {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return nil
	}
	res := call.Common().Signature().Results()
	switch {
	case row.entOne && res.Len() == 2:
		if ex := ssautil.Extract(call, 1); ex != nil {
			return ex
		}
	case row.entOne && res.Len() == 1 && types.Identical(res.At(0).Type(), types.Universe.Lookup("error").Type()):
		return call
	case res.Len() == 2 && isCount(res.At(0).Type()):
		if ex := ssautil.Extract(call, 0); ex != nil {
			return ex
		}
	case res.Len() == 1 && isCount(res.At(0).Type()):
		return call
	}
	return nil
}

func isCount(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
