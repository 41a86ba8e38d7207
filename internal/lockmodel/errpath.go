package lockmodel

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// onErrorPath reports whether op runs only when an error occurred: inside
// `if err != nil { … }`. A key deleted only there is an idempotency marker
// cleared so that a retry can run, not a lock released after the work. A
// deferred call runs whatever happened; a deferred closure may still test the
// named error result (`defer func() { if err != nil { Del } }()`).
func onErrorPath(op *Op) bool {
	if _, ok := op.Instr.(*ssa.Defer); ok {
		return false
	}
	for b := op.Instr.Block(); b != nil && b.Idom() != nil; b = b.Idom() {
		parent := b.Idom()
		ifInstr, ok := parent.Instrs[len(parent.Instrs)-1].(*ssa.If)
		if !ok || len(parent.Succs) != 2 {
			continue
		}
		cmp, ok := ifInstr.Cond.(*ssa.BinOp)
		if !ok || !comparesErrorWithNil(cmp) {
			continue
		}
		if cmp.Op == token.NEQ && b == parent.Succs[0] || cmp.Op == token.EQL && b == parent.Succs[1] {
			return true
		}
	}
	return false
}

func comparesErrorWithNil(cmp *ssa.BinOp) bool {
	if cmp.Op != token.NEQ && cmp.Op != token.EQL {
		return false
	}
	return isErrorType(cmp.X.Type()) && nilConst(cmp.Y) || isErrorType(cmp.Y.Type()) && nilConst(cmp.X)
}

// nilConst reports whether v is a nil constant, as in err != nil.
func nilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}
