package lockmodel

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// fieldConsts are the unexported struct fields of a package that hold one
// constant wherever the package sets them: a lock object whose constructor
// stores value: "locked" stores a constant at every acquisition, though the
// acquisition reads a field. Only the package can set an unexported field,
// so all its stores are in sight.
type fieldConsts map[*types.Var]bool

func constFields(pkg *types.Package, funcs []*ssa.Function) fieldConsts {
	value := make(map[*types.Var]string)
	varies := make(map[*types.Var]bool)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				f := storedField(st.Addr)
				if f == nil || f.Exported() || f.Pkg() != pkg {
					continue
				}
				c, isConst := ssautil.Unwrap(st.Val).(*ssa.Const)
				switch {
				case !isConst || c.Value == nil:
					varies[f] = true
				case value[f] == "":
					value[f] = c.Value.ExactString()
				case value[f] != c.Value.ExactString():
					varies[f] = true
				}
			}
		}
	}
	out := make(fieldConsts)
	for f := range value {
		if !varies[f] {
			out[f] = true
		}
	}
	return out
}

// storedField returns the field addr is the address of, nil for any other
// address.
func storedField(addr ssa.Value) *types.Var {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	st, ok := ssautil.Deref(fa.X.Type()).Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}

// holds reports whether v is a load of such a field.
func (c fieldConsts) holds(v ssa.Value) bool {
	load, ok := ssautil.Unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	f := storedField(load.X)
	return f != nil && c[f]
}
