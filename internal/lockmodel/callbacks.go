package lockmodel

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/link"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// CallbackFact describes a function that calls some of its parameters while it
// holds a lock it takes and releases itself, WithLock(ctx, key, fn): the
// function literal a caller passes there runs under the lock.
type CallbackFact struct {
	Params []int // {pN} numbering: the receiver first
}

// AFact marks CallbackFact as an analysis fact.
func (*CallbackFact) AFact() {}

func (f *CallbackFact) String() string { return fmt.Sprintf("runs %v under a lock", f.Params) }

// Callback is a function literal run under a lock that the function it is
// passed to holds: the literal in WithLock(ctx, key, func() error { … }).
type Callback struct {
	Call ssa.CallInstruction // the call that passes it
	Fn   *ssa.Function       // the literal
}

// Region is the literal's body, with the closures it makes.
func (c *Callback) Region() *Region {
	r := &Region{spans: make(map[*ssa.BasicBlock]span), bodies: make(map[*ssa.Function]bool)}
	r.addBody(c.Fn)
	return r
}

// callbackFacts finds the package's functions that call a parameter under a
// lock they take and release themselves.
func callbackFacts(locks []*Lock) map[*types.Func]*CallbackFact {
	out := make(map[*types.Func]*CallbackFact)
	for _, l := range locks {
		fn := l.Acquire.Fn
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || fn.Synthetic != "" {
			continue
		}
		for instr := range l.Region().Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			p, ok := call.Common().Value.(*ssa.Parameter)
			if !ok || p.Parent() != fn {
				continue
			}
			for i, q := range fn.Params {
				if q == p {
					f := out[obj]
					if f == nil {
						f = new(CallbackFact)
						out[obj] = f
					}
					f.Params = appendUnique(f.Params, i)
				}
			}
		}
	}
	return out
}

func appendUnique(s []int, n int) []int {
	for _, m := range s {
		if m == n {
			return s
		}
	}
	return append(s, n)
}

// callbacks finds the function literals the package passes to functions that
// run them under a lock, local or known by their facts.
func callbacks(pass *analysis.Pass, funcs []*ssa.Function, local map[*types.Func]*CallbackFact) []*Callback {
	fact := func(obj *types.Func) *CallbackFact {
		if f := factOf(pass, local, obj); f != nil {
			return f
		}
		return linked[CallbackFact](obj, func(f link.Facts) []byte { return f.Callback })
	}
	var out []*Callback
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				obj, recv, args := ssautil.Callee(call.Common())
				if obj == nil || obj.Pkg() == nil {
					continue
				}
				f := fact(obj)
				if f == nil {
					continue
				}
				all := append(recvArgs(recv), args...)
				for _, i := range f.Params {
					if i >= len(all) {
						continue
					}
					v := all[i]
					if mc, ok := v.(*ssa.MakeClosure); ok {
						v = mc.Fn
					}
					if lit, ok := v.(*ssa.Function); ok && lit.Parent() != nil {
						out = append(out, &Callback{Call: call, Fn: lit})
					}
				}
			}
		}
	}
	return out
}
