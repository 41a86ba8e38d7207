package sqlcall

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// ResultChecked reports whether the code looks at how many rows the
// statement changed, as opposed to only its error: RowsAffected on the
// sql.Result or pgconn.CommandTag, gorm's RowsAffected field, or the rows an
// UPDATE … RETURNING sends back (Scan, Next, sqlx Get and Select). A result
// that leaves the function, is stored or is passed to code of the program
// counts as looked at: that code may check it.
func ResultChecked(c *Call) bool {
	if c.Result == nil {
		return false
	}
	if !callValue(c) {
		return c.Stmt.Returning // sqlx Get or Select: the rows land in the destination
	}
	return looked(c.Result, c.Stmt.Returning, make(map[ssa.Value]bool))
}

// callValue reports whether Result is what the call returns, not a
// destination it fills.
func callValue(c *Call) bool {
	call, ok := c.Instr.(*ssa.Call)
	if ex, isEx := c.Result.(*ssa.Extract); isEx {
		return ok && ex.Tuple == call
	}
	return ok && c.Result == ssa.Value(call)
}

func looked(v ssa.Value, returning bool, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return false
	}
	seen[v] = true
	for _, ref := range *v.Referrers() {
		switch x := ref.(type) {
		case ssa.CallInstruction:
			if usedBy(x, v, returning, seen) {
				return true
			}
		case *ssa.FieldAddr:
			if field(x.X.Type(), x.Field) == "RowsAffected" {
				return true
			}
		case *ssa.Field:
			if field(x.X.Type(), x.Field) == "RowsAffected" {
				return true
			}
		case *ssa.Phi, *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.ChangeType, *ssa.TypeAssert:
			if looked(x.(ssa.Value), returning, seen) {
				return true
			}
		case *ssa.BinOp:
			if isCount(v.Type()) || isError(v.Type()) {
				return true // ent's count, or the NotFoundError of UpdateOne
			}
		case *ssa.Return, *ssa.Store, *ssa.MakeClosure, *ssa.Send, *ssa.MapUpdate:
			return true // it leaves the function: whoever gets it may check it
		}
	}
	return false
}

// usedBy reports whether a call that takes v looks at the rows: a method of
// the result that counts or reads them, or any function of the program.
func usedBy(call ssa.CallInstruction, v ssa.Value, returning bool, seen map[ssa.Value]bool) bool {
	obj, recv, _ := ssautil.Callee(call.Common())
	if obj == nil {
		return true // a call through a func value: it may do anything
	}
	if recv != v {
		return !library(obj) || returning // the program's code, or a library scanning the rows
	}
	switch obj.Name() {
	case "RowsAffected":
		return true
	case "CommandTag": // pgx Rows.CommandTag().RowsAffected()
		if c, ok := call.(*ssa.Call); ok {
			return looked(c, returning, seen)
		}
		return false
	case "Close", "Err", "LastInsertId", "String", "Error":
		return false
	}
	return returning
}

// library reports whether a function belongs to a SQL library, not to the
// program.
func library(obj *types.Func) bool {
	if obj.Pkg() == nil {
		return true
	}
	switch p := obj.Pkg().Path(); p {
	case stdPath, sqlxPath, gormPath, gormV1Path, "github.com/jackc/pgx/v5/pgconn", "github.com/jackc/pgconn":
		return true
	default:
		for _, q := range pgxPaths {
			if p == q {
				return true
			}
		}
	}
	return false
}

func field(t types.Type, i int) string {
	if st, ok := ssautil.Deref(t).Underlying().(*types.Struct); ok && i < st.NumFields() {
		return st.Field(i).Name()
	}
	return ""
}

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }
