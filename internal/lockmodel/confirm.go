package lockmodel

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// markConfirmed finds the acquisitions whose own result is dropped but whose key
// is read back at once and compared with the value they stored:
//
//	rdb.SetNX(ctx, key, id, ttl)
//	if rdb.Get(ctx, key).Val() != id { return }
//
// The comparison tells whether this caller holds the lock, so the acquisition is
// checked after all, and the read is its check, not half of a release.
func markConfirmed(ops []*Op) {
	for _, a := range ops {
		if a.Kind != Acquire || a.Value == nil || a.Queued || a.Outcome().Checked() {
			continue
		}
		stored := ssautil.Unwrap(a.Value)
		for _, get := range ops {
			if get.Kind != Read || get.Key != a.Key || get.Fn != a.Fn || get.Pos() < a.Pos() {
				continue
			}
			call, ok := get.Instr.(*ssa.Call)
			isStored := func(v ssa.Value) bool { return sameValue(v, stored) }
			if ok && len(comparisonBranches(call, isStored, 0)) > 0 && nothingRunsBetween(a.Instr, get.Instr) {
				a.Confirmed, get.Confirms = true, true
				break
			}
		}
	}
}

// nothingRunsBetween reports whether every call on the way from one instruction
// to a later one of the same function is a Redis client's (the acquisition's
// Err or Result): no work runs before the read-back decides.
func nothingRunsBetween(from, to ssa.Instruction) bool {
	start, end := from.Block(), to.Block()
	after := reach(start, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs })
	before := reach(end, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Preds })
	for b := range after {
		if !before[b] {
			continue
		}
		instrs := b.Instrs
		if b == end && end != start {
			instrs = instrs[:indexOf(b, to)]
		}
		if b == start {
			i, j := indexOf(b, from), indexOf(b, to)
			switch {
			case end != start:
				instrs = instrs[i+1:]
			case j < i:
				return false
			default:
				instrs = instrs[i+1 : j]
			}
		}
		for _, instr := range instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && !clientCall(call) {
				return false
			}
		}
	}
	return true
}

// reach returns b and the blocks reachable from it along next.
func reach(b *ssa.BasicBlock, next func(*ssa.BasicBlock) []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := map[*ssa.BasicBlock]bool{b: true}
	for stack := []*ssa.BasicBlock{b}; len(stack) > 0; {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, n := range next(b) {
			if !seen[n] {
				seen[n] = true
				stack = append(stack, n)
			}
		}
	}
	return seen
}

func clientCall(call ssa.CallInstruction) bool {
	if _, ok := call.Common().Value.(*ssa.Builtin); ok {
		return true
	}
	obj, _, _ := ssautil.Callee(call.Common())
	return obj != nil && obj.Pkg() != nil && clients.IsClient(obj.Pkg().Path())
}

// sameValue reports whether two values are one: the same SSA value, or two
// loads of one field or global that the function does not store to in
// between (the read-back compares m.value with the m.value it stored).
func sameValue(v, w ssa.Value) bool {
	v, w = ssautil.Unwrap(v), ssautil.Unwrap(w)
	if v == w {
		return true
	}
	lv, ok1 := v.(*ssa.UnOp)
	lw, ok2 := w.(*ssa.UnOp)
	if !ok1 || !ok2 || lv.Op != token.MUL || lw.Op != token.MUL || lv.Parent() != lw.Parent() || keyOf(lv) != keyOf(lw) {
		return false
	}
	switch lv.X.(type) {
	case *ssa.FieldAddr, *ssa.Global:
	default:
		return false
	}
	target := keyOf(lv.X)
	for _, b := range lv.Parent().Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && keyOf(st.Addr) == target {
				return false
			}
		}
	}
	return true
}
