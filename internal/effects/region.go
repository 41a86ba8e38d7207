package effects

import (
	"go/token"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/lockmodel"
	"github.com/lockvet/lockvet/internal/sqlcall"
)

// Region is what a lock's critical region does, leaving out the lock's own
// commands: the SQL it writes, directly or through calls, in source order;
// what it reads; its first external call and its first call whose effects are
// unknown.
type Region struct {
	Writes   []RegionWrite
	Reads    []Read
	External string
	Unknown  string
}

// RegionWrite is one write a region makes.
type RegionWrite struct {
	Write
	Call ssa.CallInstruction // the call in the region that makes it
	SQL  *sqlcall.Call       // that call, when it runs the statement itself
	// Args is what each placeholder binds, as the region sees it: the
	// statement's own arguments, or the arguments of the call that a callee's
	// parameters take them from; nil where that is not known.
	Args []ssa.Value
	// Callee is the function the write is made in, "" when made at the call.
	Callee string
}

// Pos is where the region makes the write: the call's opening parenthesis.
func (w RegionWrite) Pos() token.Pos {
	if p := w.Call.Common().Pos(); p.IsValid() {
		return p
	}
	return w.Call.Pos()
}

// Lock returns what the region of l does.
func (r *Result) Lock(l *lockmodel.Lock) *Region {
	return r.memo(l, func() *Region { return r.region(l.Region(), l.Own()) })
}

// Callback returns what the body of a function literal that another function
// runs under its lock does.
func (r *Result) Callback(cb *lockmodel.Callback) *Region {
	return r.memo(cb, func() *Region { return r.region(cb.Region(), nil) })
}

func (r *Result) memo(key any, compute func() *Region) *Region {
	r.mu.Lock()
	defer r.mu.Unlock()
	if reg, ok := r.regions[key]; ok {
		return reg
	}
	reg := compute()
	r.regions[key] = reg
	return reg
}

func (r *Result) region(reg *lockmodel.Region, own map[ssa.Instruction]bool) *Region {
	out := &Region{}
	var calls []ssa.CallInstruction
	for instr := range reg.Instrs {
		if call, ok := instr.(ssa.CallInstruction); ok && !own[instr] && r.Of[call] != nil {
			calls = append(calls, call)
		}
	}
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].Pos() < calls[j].Pos() })
	for _, call := range calls {
		eff := r.Of[call]
		out.External = firstOf(out.External, eff.External)
		out.Unknown = firstOf(out.Unknown, eff.Unknown)
		out.Reads = append(out.Reads, eff.Reads...)
		if c := r.SQL.Calls[call]; c != nil {
			for _, w := range eff.Writes {
				out.Writes = append(out.Writes, RegionWrite{Write: w, Call: call, SQL: c, Args: c.Args})
			}
			continue
		}
		dropped := eff.Claim != nil && !claimLooked(call, eff.Claim)
		for _, w := range eff.Writes {
			if dropped && w.Claims() {
				w.Checked = false // the callee looks, and its caller drops the answer
			}
			callee := w.Via
			if callee == "" {
				callee = calleeName(call)
			}
			out.Writes = append(out.Writes, RegionWrite{Write: w, Call: call, Args: argsOf(call, w.Params), Callee: callee})
		}
	}
	return out
}

// argsOf returns the arguments of call that bind a callee's placeholders, as
// its write's Params name them.
func argsOf(call ssa.CallInstruction, params []int) []ssa.Value {
	if params == nil {
		return nil
	}
	args := callArgs(call)
	out := make([]ssa.Value, len(params))
	for i, p := range params {
		if p >= 0 && p < len(args) {
			out[i] = args[p]
		}
	}
	return out
}

// claimLooked reports whether the code looks at what a claim's call says:
// it branches on it, or hands it on (returns or stores it, passes it to a
// call other than a logger's), where whoever gets it may.
func claimLooked(call ssa.CallInstruction, c *Claim) bool {
	if won, _ := claimBranches(call, c); len(won) > 0 {
		return true
	}
	v := resultOf(call, c.Result)
	return v != nil && handedOn(v, 0)
}

// handedOn reports whether v leaves for code that may look at it: a return,
// a store, a send, or a call that is not a logger's, also as one of a
// variadic call's arguments.
func handedOn(v ssa.Value, depth int) bool {
	if depth > 4 || v.Referrers() == nil {
		return false
	}
	for _, ref := range *v.Referrers() {
		switch x := ref.(type) {
		case *ssa.Return, *ssa.MapUpdate, *ssa.Send:
			return true
		case ssa.CallInstruction:
			if !logs(x) {
				return true
			}
		case *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.ChangeType:
			if handedOn(x.(ssa.Value), depth+1) {
				return true
			}
		case *ssa.Store:
			ia, ok := x.Addr.(*ssa.IndexAddr)
			if !ok {
				return true // into a variable or a field: whoever reads it may look
			}
			if handedOn(ia.X, depth+1) {
				return true
			}
		case *ssa.Slice:
			if handedOn(x, depth+1) {
				return true
			}
		}
	}
	return false
}
