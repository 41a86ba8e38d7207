package lockmodel

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/ssautil"
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
	for _, e := range failureEdges(call) {
		b := e.test.Block()
		s := b.Succs[e.failure]
		if s != b.Succs[1-e.failure] && len(s.Preds) == 1 && s.Dominates(rb) {
			return true
		}
	}
	return false
}

type failureEdge struct {
	test    *ssa.If
	failure int // the successor taken when the lock was not acquired
}

// failureEdges returns the tests of call's "not acquired" result, each with
// the side it takes on failure, following negations and comparisons with
// nil.
func failureEdges(call *ssa.Call) []failureEdge {
	flag := hasFlag(call)
	var out []failureEdge
	var walk func(v ssa.Value, isErr, trueFails bool, depth int)
	walk = func(v ssa.Value, isErr, trueFails bool, depth int) {
		if depth > 8 || v.Referrers() == nil {
			return
		}
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case *ssa.Extract:
				walk(r, isErrorType(r.Type()), false, depth+1)
			case *ssa.ChangeType:
				walk(r, isErr, trueFails, depth+1)
			case *ssa.Call:
				obj, recv, _ := ssautil.Callee(r.Common())
				if obj != nil && obj.Pkg() != nil && clients.IsClient(obj.Pkg().Path()) && recv == v {
					walk(r, obj.Name() == "Err", false, depth+1)
				}
			case *ssa.BinOp:
				if isErr && !flag && comparesErrorWithNil(r) {
					walk(r, false, r.Op == token.NEQ, depth+1)
				}
			case *ssa.UnOp:
				if r.Op == token.NOT && !isErr {
					walk(r, false, !trueFails, depth+1)
				}
			case *ssa.If:
				if isErr {
					continue
				}
				failure := 1
				if trueFails {
					failure = 0
				}
				out = append(out, failureEdge{r, failure})
			}
		}
	}
	walk(call, isErrorType(call.Type()), false, 0)
	return out
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
