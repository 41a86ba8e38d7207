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
// are in sight (funcs are its functions, closures included); a field whose address is used other than to load or store
// it may change and is left out.
func FieldStrings(pkg *types.Package, funcs []*ssa.Function) map[*types.Var]string {
	value := make(map[*types.Var]string)
	varies := make(map[*types.Var]bool)
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
						if r.Op != token.MUL {
							varies[f] = true
						}
					case *ssa.Store:
						s, ok := constText(r.Val)
						switch {
						case r.Addr != fa || !ok:
							varies[f] = true
						case value[f] == "":
							value[f] = s
						case value[f] != s:
							varies[f] = true
						}
					default:
						varies[f] = true
					}
				}
			}
		}
	}
	for f := range varies {
		delete(value, f)
	}
	return value
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
