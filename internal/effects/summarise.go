package effects

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/sqlcall"
)

// summarise computes the summaries of the package's functions, following calls
// within the package to a fixed point and across packages through facts.
func summarise(pass *analysis.Pass, prog *buildssa.SSA, res *Result) map[*ssa.Function]*Summary {
	local := make(map[*ssa.Function]*Summary)
	byRoot := make(map[*ssa.Function][]ssa.CallInstruction)
	for _, fn := range prog.SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					byRoot[root(fn)] = append(byRoot[root(fn)], call)
				}
			}
		}
	}
	calleeSummary := func(call ssa.CallInstruction) *Summary {
		callee := call.Common().StaticCallee()
		if callee == nil {
			return nil
		}
		if s, ok := local[callee]; ok {
			return s
		}
		obj, ok := callee.Object().(*types.Func)
		if !ok || obj.Pkg() == pass.Pkg {
			return nil
		}
		s := new(Summary)
		if pass.ImportObjectFact(obj, s) {
			return s
		}
		return nil
	}
	for range 4 {
		changed := false
		for fn, calls := range byRoot {
			if _, ok := fn.Object().(*types.Func); !ok {
				continue
			}
			s := &Summary{}
			for _, call := range calls {
				if c := res.Direct[call]; c != nil && c.Known && c.Stmt.Kind.Writes() {
					s.Writes = append(s.Writes, Write{Stmt: c.Stmt, Checked: sqlcall.ResultChecked(c), RowLocked: rowLocked(c, res, calls)})
				} else if cs := calleeSummary(call); cs != nil && call.Common().StaticCallee() != fn {
					for _, w := range cs.Writes {
						if w.Via == "" {
							w.Via = call.Common().StaticCallee().Name()
						}
						s.Writes = append(s.Writes, w)
					}
				}
			}
			if len(s.Writes) > 0 && (local[fn] == nil || len(local[fn].Writes) != len(s.Writes)) {
				local[fn], changed = s, true
			}
		}
		if !changed {
			break
		}
	}
	for _, calls := range byRoot {
		for _, call := range calls {
			if cs := calleeSummary(call); cs != nil {
				res.Calls[call] = cs
			}
			if c := res.Direct[call]; c != nil && rowLocked(c, res, calls) {
				res.RowLocked[call] = true
			}
		}
	}
	return local
}

// rowLocked reports whether a write runs in a transaction that first locked
// rows with SELECT … FOR UPDATE on the same handle, in the same function.
func rowLocked(c *sqlcall.Call, res *Result, calls []ssa.CallInstruction) bool {
	if !c.InTx || c.Handle == nil {
		return false
	}
	for _, call := range calls {
		q := res.Direct[call]
		if q != nil && q.Handle == c.Handle && q.Stmt.Locking != "" && call.Pos() < c.Instr.Pos() {
			return true
		}
	}
	return false
}

func root(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}
