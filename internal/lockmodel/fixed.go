package lockmodel

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// fixedFields are the unexported fields of the package that no method of
// their struct sets: only a constructor or a composite literal does. A lock
// object that stores such a field at every acquisition (a hostname or a
// uuid drawn once in NewRedisLock) stores the same value each time, so a
// holder whose lease ran out matches the next acquisition made through the
// same object and deletes or extends it.
type fixedFields map[*types.Var]bool

func newFixedFields(pkg *types.Package, funcs []*ssa.Function) fixedFields {
	out := make(fixedFields)
	varies := make(map[*types.Var]bool)
	ssautil.FieldUses(pkg, funcs, func(fn *ssa.Function, f *types.Var, st *ssa.Store, escapes bool) {
		if escapes || st != nil && methodOf(ssautil.Root(fn), st.Addr.(*ssa.FieldAddr)) {
			varies[f] = true
		}
		out[f] = !varies[f]
	})
	return out
}

// methodOf reports whether fn is a method of the struct whose field fa
// addresses: a store there can renew the field at each use.
func methodOf(fn *ssa.Function, fa *ssa.FieldAddr) bool {
	recv := fn.Signature.Recv()
	return recv != nil && types.Identical(ssautil.Deref(recv.Type()), ssautil.Deref(fa.X.Type()))
}

// name names the receiver's field that op's value is ("RedisLock.id"),
// when op is in a method that takes its key from a parameter (one object
// makes many acquisitions) and only constructors set that field; "" otherwise.
func (c fixedFields) name(op *Op) string {
	if op.Value == nil || !keyFromParam(op.Tmpl) {
		return ""
	}
	root := ssautil.Root(op.Fn)
	if root.Signature.Recv() == nil || len(root.Params) == 0 {
		return ""
	}
	load, ok := ssautil.Unwrap(op.Value).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return ""
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || ssautil.Unwrap(ssautil.Assigned(ssautil.Unwrap(fa.X))) != root.Params[0] {
		return ""
	}
	named, ok := ssautil.Deref(fa.X.Type()).(*types.Named)
	if f := ssautil.FieldOf(fa); ok && f != nil && c[f] {
		return named.Obj().Name() + "." + f.Name()
	}
	return ""
}

// keyFromParam reports whether k is computed from a parameter other than
// the receiver, also through a method of it ("lock:job:"+job.ID.String()):
// the key varies with the caller's argument.
func keyFromParam(k Key) bool {
	if k.Kind == Param {
		return k.N > 0
	}
	return slices.ContainsFunc(k.Args, keyFromParam)
}
