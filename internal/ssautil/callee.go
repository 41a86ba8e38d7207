package ssautil

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Callee names the function a call reaches (a generic function's origin for
// an instance), with its receiver and the other arguments. Interface calls name the interface method: go-redis declares its
// commands on the Cmdable and UniversalClient interfaces as well, pgx its
// queries on Tx.
func Callee(c *ssa.CallCommon) (obj *types.Func, recv ssa.Value, args []ssa.Value) {
	if c.IsInvoke() {
		return c.Method, c.Value, c.Args
	}
	callee := c.StaticCallee()
	if callee == nil {
		return nil, nil, nil
	}
	obj, _ = callee.Object().(*types.Func)
	if obj == nil {
		return nil, nil, nil
	}
	obj = obj.Origin() // a generic method's instance is known by its origin's facts
	if obj.Type().(*types.Signature).Recv() != nil && len(c.Args) > 0 {
		return obj, c.Args[0], c.Args[1:]
	}
	return obj, nil, c.Args
}

// RecvName returns the name of the type a method is declared on, "" for a
// package-level function.
func RecvName(obj *types.Func) string {
	recv := obj.Type().(*types.Signature).Recv()
	if recv == nil {
		return ""
	}
	if n, ok := Deref(recv.Type()).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// IsNamed reports whether t, or what it points to, is the type path.name.
func IsNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(Deref(t)).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// DropContexts removes the context.Context arguments, which no client reads a
// key or a statement from.
func DropContexts(args []ssa.Value) []ssa.Value {
	out := args[:0:0]
	for _, a := range args {
		if !IsNamed(a.Type(), "context", "Context") {
			out = append(out, a)
		}
	}
	return out
}

// Root returns the outermost function of fn: a closure counts as part of the
// function that declares it.
func Root(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}
