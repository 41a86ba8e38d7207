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

// callbacks finds the functions the package passes to functions that run
// them under a lock, local or known by their facts: a literal, a function,
// or a method value (WithLock(ctx, key, p.purge)). It first adds to local
// the package's functions that hand a parameter of theirs on to such a
// function, as is or called in a literal of their own: a job scheduler
// that wraps the lock runner runs its job under the lock too.
func callbacks(pass *analysis.Pass, funcs []*ssa.Function, local map[*types.Func]*CallbackFact) []*Callback {
	fact := func(obj *types.Func) *CallbackFact {
		if f := factOf(pass, local, obj); f != nil {
			return f
		}
		return linked[CallbackFact](obj, func(f link.Facts) []byte { return f.Callback })
	}
	var out []*Callback
	for range 4 {
		out = out[:0]
		changed := false
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
						if body := runnable(pass, all[i]); body != nil {
							out = append(out, &Callback{Call: call, Fn: body})
						}
						for _, p := range handedOn(all[i]) {
							changed = markRuns(local, p) || changed
						}
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	return out
}

// runnable returns the body of the function value v, when this package
// has it: a literal, a function, or the method of a method value.
func runnable(pass *analysis.Pass, v ssa.Value) *ssa.Function {
	var fn *ssa.Function
	switch x := ssautil.Unwrap(v).(type) {
	case *ssa.MakeClosure:
		fn = x.Fn.(*ssa.Function)
	case *ssa.Function:
		fn = x
	}
	if fn == nil {
		return nil
	}
	if fn.Synthetic != "" {
		// The wrapper of a method value: what runs is the method it calls.
		fn = wrapped(fn)
	}
	if fn == nil || len(fn.Blocks) == 0 || fn.Pkg == nil || fn.Pkg.Pkg != pass.Pkg {
		return nil
	}
	return fn
}

// wrapped returns the function a synthetic wrapper calls.
func wrapped(fn *ssa.Function) *ssa.Function {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				return call.Common().StaticCallee()
			}
		}
	}
	return nil
}

// handedOn returns the parameters of top-level functions that the function
// value v runs: v itself, or the parameters a literal calls.
func handedOn(v ssa.Value) []*ssa.Parameter {
	v = ssautil.Unwrap(v)
	if p := boundParam(v); p != nil {
		return []*ssa.Parameter{p}
	}
	mc, ok := v.(*ssa.MakeClosure)
	if !ok {
		return nil
	}
	var out []*ssa.Parameter
	var walk func(fn *ssa.Function)
	walk = func(fn *ssa.Function) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case ssa.CallInstruction:
					if p := boundParam(x.Common().Value); p != nil {
						out = append(out, p)
					}
				case *ssa.MakeClosure:
					walk(x.Fn.(*ssa.Function))
				}
			}
		}
	}
	walk(mc.Fn.(*ssa.Function))
	return out
}

// boundParam returns the parameter of a top-level function that v is,
// directly or as a closure's free variable.
func boundParam(v ssa.Value) *ssa.Parameter {
	for range 8 {
		switch x := ssautil.Assigned(v).(type) {
		case *ssa.Parameter:
			if x.Parent().Parent() == nil {
				return x
			}
			return nil
		case *ssa.FreeVar:
			v = ssautil.FreeVarBinding(x)
		default:
			return nil
		}
	}
	return nil
}

// markRuns records that p's function runs p under a lock.
func markRuns(local map[*types.Func]*CallbackFact, p *ssa.Parameter) bool {
	fn := p.Parent()
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Synthetic != "" {
		return false
	}
	for i, q := range fn.Params {
		if q != p {
			continue
		}
		f := local[obj]
		if f == nil {
			f = new(CallbackFact)
			local[obj] = f
		}
		n := len(f.Params)
		f.Params = appendUnique(f.Params, i)
		return len(f.Params) > n
	}
	return false
}
