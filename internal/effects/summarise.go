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
	sers := make(map[*ssa.Function][]serializer, len(byRoot))
	for fn, calls := range byRoot {
		sers[fn] = serializers(calls, res)
	}
	for range 4 {
		changed := false
		for fn, calls := range byRoot {
			if _, ok := fn.Object().(*types.Func); !ok {
				continue
			}
			sum := &Summary{}
			for _, call := range calls {
				eff := s.of(call, sers[fn])
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
	for fn, calls := range byRoot {
		for _, call := range calls {
			eff := s.of(call, sers[fn])
			if eff == nil {
				continue
			}
			res.Of[call] = eff
			if res.Direct[call] == nil && len(eff.Writes) > 0 {
				res.Calls[call] = eff
			}
			if res.Direct[call] != nil && serialized(call, res, sers[fn]) {
				res.Serialized[call] = true
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

// of says what one call does; nil when it is pure. The writes of a callee that
// another statement of this flow serializes are marked so.
func (s *summariser) of(call ssa.CallInstruction, sers []serializer) *Summary {
	if c := s.res.Direct[call]; c != nil {
		return direct(call, c, s.res, sers)
	}
	eff := s.callee(call)
	if eff == nil || len(eff.Writes) == 0 || !serialized(call, s.res, sers) {
		return eff
	}
	marked := *eff
	marked.Writes = make([]Write, len(eff.Writes))
	for i, w := range eff.Writes {
		w.Serialized = true
		marked.Writes[i] = w
	}
	return &marked
}

// callee says what a call of a function does; nil when it is pure.
func (s *summariser) callee(call ssa.CallInstruction) *Summary {
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
func direct(call ssa.CallInstruction, c *sqlcall.Call, res *Result, sers []serializer) *Summary {
	if !c.Known {
		return &Summary{Unknown: "SQL lockvet cannot read"}
	}
	switch {
	case c.Stmt.Kind.Writes():
		return &Summary{Writes: []Write{{
			Stmt: c.Stmt, Text: c.Text, Checked: sqlcall.ResultChecked(c), Serialized: serialized(call, res, sers),
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

// serializer is a statement that lets only one caller make some writes of its
// function: a row lock (SELECT … FOR UPDATE, or a queue claim's locking
// subquery) or a claim, a write that admits one caller (a conditional UPDATE,
// an INSERT … ON CONFLICT DO NOTHING) whose row count the code branches on.
type serializer struct {
	call ssa.CallInstruction
	sql  *sqlcall.Call
	won  []*ssa.BasicBlock // a claim's: the blocks only its winner runs; nil for a row lock
}

// serializers returns the serializers among a function's calls.
func serializers(calls []ssa.CallInstruction, res *Result) []serializer {
	var out []serializer
	for _, call := range calls {
		q := res.Direct[call]
		switch {
		case q == nil || !q.Known:
		case q.Stmt.Locking != "":
			out = append(out, serializer{call: call, sql: q})
		case q.Stmt.AdmitsOne():
			if won := sqlcall.WonBranches(q); len(won) > 0 {
				out = append(out, serializer{call: call, sql: q, won: won})
			}
		}
	}
	return out
}

// serialized reports whether a serializer of its function already lets only
// one caller make a write: a row lock earlier in its transaction, or a claim
// with the write on its winner's branch, or before it in its transaction,
// which the loser does not get to commit. A call of a function that is given
// the transaction counts as a write in it.
func serialized(call ssa.CallInstruction, res *Result, sers []serializer) bool {
	onHandle := func(h ssa.Value) bool {
		if c := res.Direct[call]; c != nil {
			return c.Handle == h
		}
		for _, arg := range call.Common().Args {
			if sqlcall.Origin(arg) == h {
				return true
			}
		}
		return false
	}
	for _, s := range sers {
		if s.call == call {
			continue
		}
		inTx := s.sql.InTx && s.sql.Handle != nil && onHandle(s.sql.Handle)
		if s.won == nil {
			if inTx && s.call.Pos() < call.Pos() {
				return true
			}
			continue
		}
		if inTx && call.Pos() < s.call.Pos() {
			return true
		}
		for _, b := range s.won {
			if b.Parent() == call.Parent() && b.Dominates(call.Block()) {
				return true
			}
		}
	}
	return false
}
