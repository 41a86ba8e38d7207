package lockmodel

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// ReleasedOnFailure reports whether r runs only where the acquisition's
// test said the lock was not acquired:
//
//	if err := s.Lock(ctx, key); err != nil {
//		s.Unlock(ctx, key) // the lock it deletes is the holder's
//		continue
//	}
//
// The test that counts is the one of the result that says "held by someone
// else": the flag when the call returns one, else the error. The error of a
// call that also returns a flag is a failure to talk to Redis, after which
// the key may have been set, and deleting it may be cleanup.
func (l *Lock) ReleasedOnFailure(r *Op) bool {
	a := l.Acquire
	call, ok := a.Instr.(*ssa.Call)
	if !ok || a.Queued || a.Confirmed || r.Fn != a.Fn || r.Deferred() {
		return false
	}
	rb := r.Instr.Block()
	flag := hasFlag(call)
	for _, t := range resultTests(call) {
		if t.failure < 0 || t.err == flag {
			continue
		}
		b := t.If.Block()
		s := b.Succs[t.failure]
		if s != b.Succs[1-t.failure] && len(s.Preds) == 1 && s.Dominates(rb) {
			return true
		}
	}
	return false
}

// hasFlag reports whether call's results include the acquired flag, beside
// any error: a bool, or a reply object such as go-redis's *BoolCmd.
func hasFlag(call *ssa.Call) bool {
	if t, ok := call.Type().(*types.Tuple); ok {
		for i := 0; i < t.Len(); i++ {
			if isBool(t.At(i).Type()) {
				return true
			}
		}
		return false
	}
	return !isErrorType(call.Type())
}

// takesOver reports whether r, run only where the lock was not acquired,
// deletes a value it read and judged first: a claim that clears a corrupt
// or abandoned holder's key to claim it again. It releases nothing of its
// own, so it is no release of this lock.
//
//	if ok { return }
//	val, _ := rdb.Get(ctx, key).Result()
//	if corrupt(val) { rdb.Del(ctx, key); continue }
func (l *Lock) takesOver(r *Op, ops []*Op) bool {
	if !l.ReleasedOnFailure(r) {
		return false
	}
	rb := r.Instr.Block()
	for _, g := range ops {
		get, ok := g.Instr.(*ssa.Call)
		if !ok || g.Kind != Read || g.Key != r.Key || g.Fn != r.Fn || !g.Instr.Block().Dominates(rb) {
			continue
		}
		for b := rb.Idom(); b != nil; b = b.Idom() {
			if test, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && dependsOn(test.Cond, get, 0) {
				return true
			}
			if b == g.Instr.Block() {
				break
			}
		}
	}
	return false
}

// dependsOn reports whether v is computed from the value of call.
func dependsOn(v ssa.Value, call *ssa.Call, depth int) bool {
	if v == call {
		return true
	}
	instr, ok := v.(ssa.Instruction)
	if !ok || depth > 8 {
		return false
	}
	for _, op := range instr.Operands(nil) {
		if *op != nil && dependsOn(*op, call, depth+1) {
			return true
		}
	}
	return false
}
