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
