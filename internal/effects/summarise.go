package effects

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/sqlcall"
	"github.com/lockvet/lockvet/internal/sqltext"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// summarise computes the summaries of the package's functions, following calls
// within the package to a fixed point and across packages through facts, and
// records what each call does in res.
func summarise(pass *analysis.Pass, prog *buildssa.SSA, res *Result) map[*ssa.Function]*Summary {
	byRoot := make(map[*ssa.Function][]ssa.CallInstruction)
	for _, fn := range prog.SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					byRoot[ssautil.Root(fn)] = append(byRoot[ssautil.Root(fn)], call)
				}
			}
		}
	}
	s := &summariser{pass: pass, res: res, local: make(map[*ssa.Function]*Summary)}
	for range 4 {
		changed := false
		for fn, calls := range byRoot {
			if _, ok := fn.Object().(*types.Func); !ok {
				continue
			}
			sum := &Summary{}
			for _, call := range calls {
				eff := s.of(call, calls)
				switch {
				case eff == nil || call.Common().StaticCallee() == fn:
				case res.Direct[call] != nil:
					sum.merge(eff, "") // made here, not through a callee
				default:
					sum.merge(eff, calleeName(call))
				}
			}
			if old := s.local[fn]; old == nil || old.String() != sum.String() {
				s.local[fn], changed = sum, true
			}
		}
		if !changed {
			break
		}
	}
	for _, calls := range byRoot {
		for _, call := range calls {
			eff := s.of(call, calls)
			if eff == nil {
				continue
			}
			res.Of[call] = eff
			if res.Direct[call] == nil && len(eff.Writes) > 0 {
				res.Calls[call] = eff
			}
			if c := res.Direct[call]; c != nil && rowLocked(c, res, calls) {
				res.RowLocked[call] = true
			}
		}
	}
	out := make(map[*ssa.Function]*Summary)
	for fn, sum := range s.local {
		if !sum.empty() {
			out[fn] = sum
		}
	}
	return out
}

type summariser struct {
	pass  *analysis.Pass
	res   *Result
	local map[*ssa.Function]*Summary
}

// of says what one call does; nil when it is pure.
func (s *summariser) of(call ssa.CallInstruction, calls []ssa.CallInstruction) *Summary {
	if c := s.res.Direct[call]; c != nil {
		return direct(call, c, s.res, calls)
	}
	common := call.Common()
	switch v := common.Value.(type) {
	case *ssa.Builtin:
		return nil
	case *ssa.MakeClosure:
		return nil // its body is summarised with the function that makes it
	case *ssa.Function:
		if v.Parent() != nil {
			return nil
		}
	}
	if common.IsInvoke() {
		return s.byPackage(common.Method)
	}
	callee := common.StaticCallee()
	if callee == nil {
		return &Summary{Unknown: "a call of a func value"}
	}
	if sum, ok := s.local[callee]; ok {
		if sum.empty() {
			return nil
		}
		return sum
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return nil // a synthetic wrapper: its target is a call of its own
	}
	if obj.Pkg() == s.pass.Pkg {
		return nil // summarised in a later round
	}
	fact := new(Summary)
	if s.pass.ImportObjectFact(obj, fact) {
		return fact
	}
	if obj.Pkg() != nil && s.pass.ImportPackageFact(obj.Pkg(), new(packageFact)) {
		return nil // a summarised package where this function does nothing outside
	}
	return s.byPackage(obj)
}

// byPackage classifies a call by the package of its callee, from the table.
func (s *summariser) byPackage(obj *types.Func) *Summary {
	if obj.Pkg() == nil {
		return nil // error.Error
	}
	switch classify(obj.Pkg().Path(), ssautil.RecvName(obj), obj.Name()) {
	case pure:
		return nil
	case external:
		return &Summary{External: obj.FullName()}
	}
	return &Summary{Unknown: obj.FullName()}
}

// direct summarises a call that runs SQL.
func direct(call ssa.CallInstruction, c *sqlcall.Call, res *Result, calls []ssa.CallInstruction) *Summary {
	if !c.Known {
		return &Summary{Unknown: "SQL lockvet cannot read"}
	}
	switch {
	case c.Stmt.Kind.Writes():
		return &Summary{Writes: []Write{{
			Stmt: c.Stmt, Text: c.Text, Checked: sqlcall.ResultChecked(c), RowLocked: rowLocked(c, res, calls),
			InLoop: inLoop(call),
		}}}
	case c.Stmt.Kind == sqltext.Select && c.Stmt.Locking == "":
		return &Summary{Reads: []string{c.Stmt.Table}}
	}
	return nil
}

// inLoop reports whether call's block can reach itself.
func inLoop(call ssa.CallInstruction) bool {
	start := call.Block()
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), start.Succs...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == start {
			return true
		}
		if !seen[b] {
			seen[b] = true
			stack = append(stack, b.Succs...)
		}
	}
	return false
}

func calleeName(call ssa.CallInstruction) string {
	if callee := call.Common().StaticCallee(); callee != nil {
		return callee.Name()
	}
	return ""
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
