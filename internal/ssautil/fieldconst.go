package ssautil

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// FieldStrings returns the unexported string fields of pkg's structs that
// hold one constant wherever the package sets them, with that constant: a
// model whose constructor sets table: "`orders`" queries that table in every
// method. Only the package can set an unexported field, so all its stores
// are in sight (funcs are its functions, closures included).
func FieldStrings(pkg *types.Package, funcs []*ssa.Function) map[*types.Var]string {
	value := make(map[*types.Var]string)
	varies := make(map[*types.Var]bool)
	FieldUses(pkg, funcs, func(_ *ssa.Function, f *types.Var, st *ssa.Store, escapes bool) {
		if st == nil && !escapes {
			return // a load
		}
		s, ok := "", false
		if st != nil {
			s, ok = constText(st.Val)
		}
		switch {
		case !ok:
			varies[f] = true
		case value[f] == "":
			value[f] = s
		case value[f] != s:
			varies[f] = true
		}
	})
	for f := range varies {
		delete(value, f)
	}
	return value
}

// FieldUses calls use for each load of an unexported field of pkg's structs
// that funcs make (st nil), each store into one, and each use of its
// address other than to load or store it (escapes: it may change anywhere),
// with the function the use is in.
func FieldUses(pkg *types.Package, funcs []*ssa.Function, use func(fn *ssa.Function, f *types.Var, st *ssa.Store, escapes bool)) {
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				fa, ok := instr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				f := FieldOf(fa)
				if f == nil || f.Exported() || f.Pkg() != pkg {
					continue
				}
				for _, ref := range *fa.Referrers() {
					switch r := ref.(type) {
					case *ssa.DebugRef:
					case *ssa.UnOp:
						use(fn, f, nil, r.Op != token.MUL)
					case *ssa.Store:
						if r.Addr != fa {
							use(fn, f, nil, true)
						} else {
							use(fn, f, r, false)
						}
					default:
						use(fn, f, nil, true)
					}
				}
			}
		}
	}
}

func constText(v ssa.Value) (string, bool) {
	c, ok := Unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// FieldOf returns the field fa is the address of.
func FieldOf(fa *ssa.FieldAddr) *types.Var {
	st, ok := Deref(fa.X.Type()).Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}
