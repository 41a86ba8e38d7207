package lockmodel

import (
	"go/constant"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// markerTTL is the TTL from which a key set if absent is a marker rather
// than a lease when it outlives the work: no holder pauses that long, so
// the lease-expiry race a lock check is about cannot happen.
const markerTTL = time.Hour

// marker reports whether a SET NX whose key the function deletes again is a
// once-marker (an idempotency or dedupe key) rather than a lock:
//
//	isNew, err := rdb.SetNX(ctx, "queued:"+id, "true", 31*24*time.Hour).Result()
//	if err != nil || !isNew { continue }
//	if err := publish(); err != nil {
//		rdb.Del(ctx, "queued:"+id) // let a retry through
//		continue
//	}
//
// Its TTL is an hour or more, no release is deferred, and the path on which
// the work goes through leaves the key in place: only a failure deletes it.
func (l *Lock) marker() bool {
	a := l.Acquire
	if !longTTL(a.TTLExpr) {
		return false
	}
	stops := make(map[*ssa.BasicBlock]bool)
	for _, r := range l.Releases {
		if r.Deferred() || r.Fn != a.Fn {
			return false
		}
		stops[r.Instr.Block()] = true
	}
	start := acquiredBlock(a)
	if start == nil || stops[start] {
		return false
	}
	head := a.Instr.Block()
	seen := map[*ssa.BasicBlock]bool{start: true}
	queue := []*ssa.BasicBlock{start}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			return true
		}
		for _, s := range b.Succs {
			if s.Dominates(head) {
				return true // on to the next iteration, the key kept
			}
			if !seen[s] && !stops[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		}
	}
	return false
}

// longTTL reports a constant time.Duration of markerTTL or more.
func longTTL(v ssa.Value) bool {
	d, ok := constDuration(v)
	return ok && d >= markerTTL
}

// constDuration returns v when it is a constant time.Duration.
func constDuration(v ssa.Value) (time.Duration, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int || !isDuration(c.Type()) {
		return 0, false
	}
	d, exact := constant.Int64Val(c.Value)
	return time.Duration(d), exact
}

func isDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// TinyTTL returns the acquisition's TTL when it is a constant time.Duration
// under a millisecond: a bare number given as a Duration counts nanoseconds
// (SetNX(ctx, k, v, 15)), and go-redis sends it as PX 1, so the lock is gone
// before the work starts.
func (op *Op) TinyTTL() (time.Duration, bool) {
	if op.Kind != Acquire || op.TTL != TTLSet {
		return 0, false
	}
	d, ok := constDuration(op.TTLExpr)
	return d, ok && d > 0 && d < time.Millisecond
}

// shortTTL reports a constant TTL under markerTTL: a time.Duration, or a
// count of seconds or milliseconds (go-zero's SetnxEx, EX or PX words),
// which is short in either unit when it is under an hour of seconds.
func shortTTL(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	d, exact := constant.Int64Val(c.Value)
	if !exact || d <= 0 {
		return false
	}
	if isDuration(c.Type()) {
		return time.Duration(d) < markerTTL
	}
	return d < int64(markerTTL/time.Second)
}

// acquiredBlock returns the block the acquisition's last test of its result
// leads to when the key was set: the start of the work.
func acquiredBlock(a *Op) *ssa.BasicBlock {
	call, ok := a.Instr.(*ssa.Call)
	if !ok {
		return nil
	}
	var last *ssa.If
	var lastAcquired int
	for _, t := range parityTests(call) {
		if t.If.Parent() != a.Fn {
			continue
		}
		if last == nil || last.Block().Dominates(t.If.Block()) {
			last, lastAcquired = t.If, t.acquired
		}
	}
	if last == nil {
		return nil
	}
	return last.Block().Succs[lastAcquired]
}

type parityTest struct {
	If       *ssa.If
	acquired int // the successor taken when the key was set
}

// parityTests returns the branches on an acquisition's flag or error with
// the side each takes when the key was set.
func parityTests(call *ssa.Call) []parityTest {
	var out []parityTest
	var walk func(v ssa.Value, whenSet bool, isErr bool, depth int)
	// whenSet: the value v holds when the key was set, for a bool; for an
	// error, isErr and whenSet is false (nil).
	walk = func(v ssa.Value, whenSet, isErr bool, depth int) {
		if depth > 8 || v.Referrers() == nil {
			return
		}
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case *ssa.Extract:
				if isErrorType(r.Type()) {
					walk(r, false, true, depth+1)
				} else if isBool(r.Type()) {
					walk(r, true, false, depth+1)
				}
			case *ssa.Call:
				obj, recv, _ := ssautil.Callee(r.Common())
				if obj != nil && recv == v {
					switch obj.Name() {
					case "Err":
						walk(r, false, true, depth+1)
					case "Val":
						walk(r, true, false, depth+1)
					case "Result":
						walk(r, true, false, depth+1)
					}
				}
			case *ssa.UnOp:
				if r.Op == token.NOT && !isErr {
					walk(r, !whenSet, false, depth+1)
				}
			case *ssa.BinOp:
				if isErr && (r.Op == token.EQL || r.Op == token.NEQ) && (isNilConst(r.X) || isNilConst(r.Y)) {
					walk(r, r.Op == token.EQL, false, depth+1) // err == nil holds when set
				}
			case *ssa.If:
				if !isErr {
					side := 1
					if whenSet {
						side = 0
					}
					out = append(out, parityTest{r, side})
				}
			}
		}
	}
	walk(call, true, isErrorType(call.Type()), 0)
	return out
}

func isNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}
