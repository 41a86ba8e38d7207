package lockmodel

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// ReleasedBeforeCheck reports whether r is deferred before the acquisition's
// result is tested:
//
//	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
//	defer unlock(ctx, key)
//	if err != nil || !ok { return }
//
// The release then runs for a caller that did not get the lock too, and
// deletes the holder's. It is so when some part of the result (the flag, or
// the error) is tested after the defer and not before it, whether or not
// that test then stops the work.
func (l *Lock) ReleasedBeforeCheck(r *Op) bool {
	a := l.Acquire
	call, ok := a.Instr.(*ssa.Call)
	if !ok || a.Queued || a.Confirmed {
		return false
	}
	d := deferOf(r)
	if d == nil || d.Parent() != a.Fn {
		return false
	}
	var before, after [2]bool // by part: the flag, the error
	for _, t := range resultTests(call) {
		if t.If.Parent() != a.Fn {
			continue
		}
		part := 0
		if t.err {
			part = 1
		}
		switch {
		case runsBefore(t.If, d):
			before[part] = true
		case runsBefore(d, t.If):
			after[part] = true
		}
	}
	return after[0] && !before[0] || after[1] && !before[1]
}

// deferOf returns the defer that runs r: r's own, or the one deferring the
// closure r is in.
func deferOf(r *Op) *ssa.Defer {
	if d, ok := r.Instr.(*ssa.Defer); ok {
		return d
	}
	parent := r.Fn.Parent()
	if parent == nil {
		return nil
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				if mc, ok := d.Call.Value.(*ssa.MakeClosure); ok && mc.Fn == r.Fn || d.Call.Value == r.Fn {
					return d
				}
			}
		}
	}
	return nil
}

// runsBefore reports whether x runs before y on every path to y.
func runsBefore(x, y ssa.Instruction) bool {
	bx, by := x.Block(), y.Block()
	if bx == by {
		return indexOf(bx, x) < indexOf(by, y)
	}
	return bx.Dominates(by)
}

type resultTest struct {
	If  *ssa.If
	err bool // tests the error, not the flag
	// failure is the successor taken when the lock was not acquired, -1
	// when the test's polarity is not known (a comparison other than an
	// error's with nil).
	failure int
}

// resultTests returns the branches on the acquisition's result: its flag or
// reply, and its error, through Result, Val, Err, negations and
// comparisons.
func resultTests(call *ssa.Call) []resultTest {
	var out []resultTest
	// trueFails: the value tested is true when the lock was not acquired;
	// known: whether that is known.
	var walk func(v ssa.Value, isErr, trueFails, known bool, depth int)
	walk = func(v ssa.Value, isErr, trueFails, known bool, depth int) {
		if depth > 8 || v.Referrers() == nil {
			return
		}
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case *ssa.Extract:
				isErr := isErrorType(r.Type())
				walk(r, isErr, false, !isErr, depth+1)
			case *ssa.ChangeType, *ssa.MakeInterface:
				walk(r.(ssa.Value), isErr, trueFails, known, depth+1)
			case *ssa.Call:
				obj, recv, _ := ssautil.Callee(r.Common())
				if obj != nil && obj.Pkg() != nil && clients.IsClient(obj.Pkg().Path()) && recv == v {
					isErr := obj.Name() == "Err"
					walk(r, isErr, false, !isErr, depth+1)
				}
			case *ssa.BinOp:
				if r.Op == token.EQL || r.Op == token.NEQ {
					nilTest := isErr && comparesErrorWithNil(r)
					walk(r, isErr, nilTest && r.Op == token.NEQ, nilTest, depth+1)
				}
			case *ssa.UnOp:
				if r.Op == token.NOT {
					walk(r, isErr, !trueFails, known, depth+1)
				}
			case *ssa.If:
				failure := -1
				switch {
				case known && trueFails:
					failure = 0
				case known:
					failure = 1
				}
				out = append(out, resultTest{r, isErr, failure})
			}
		}
	}
	isErr := isErrorType(call.Type())
	walk(call, isErr, false, !isErr, 0)
	return out
}
