package lockmodel

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/logging"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// markTwoStep flags each unchecked release or refresh that runs only when a GET
// of the same key, compared in Go, says the caller still owns it: two round
// trips, and the lock can change hands between them. A GET that confirms an
// acquisition is not such a check. The release may be a wrapper's plain one
// (an in-house client's Delete): the comparison here makes it two steps.
func markTwoStep(ops []*Op) {
	markConfirmed(ops)
	for _, rel := range ops {
		if rel.Kind != Release && rel.Kind != Refresh || rel.Checked || rel.Fact != nil && rel.Fact.TwoStep {
			continue
		}
		// A SET that rewrites the key refreshes a lock only when what was
		// read equals the owner: on a difference it updates a cache.
		rewrite := rel.Kind == Refresh && rel.rewrites()
		for _, get := range ops {
			if get.Kind == Read && !get.Confirms && get.Key == rel.Key && guards(get, rel, rewrite) {
				rel.TwoStep = true
			}
		}
	}
}

// guards reports whether a comparison of what get read decides whether rel
// runs; onEqual, whether rel runs only when the two are equal.
func guards(get, rel *Op, onEqual bool) bool {
	call, ok := get.Instr.(*ssa.Call)
	if !ok {
		return false
	}
	relBlock := rel.Instr.Block()
	owner := func(v ssa.Value) bool { return !IsConst(v) }
	for _, b := range comparisonBranches(call, owner, 0) {
		if b.Parent() != relBlock.Parent() || !b.Dominates(relBlock) || b == relBlock {
			continue
		}
		if eq := equalSide(b); !onEqual || eq != nil && eq.Dominates(relBlock) {
			return true
		}
	}
	return false
}

// equalSide returns the successor of b's If that runs when the comparison it
// tests finds the two sides equal; nil when lockvet cannot tell.
func equalSide(b *ssa.BasicBlock) *ssa.BasicBlock {
	test, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	switch c := test.Cond.(type) {
	case *ssa.BinOp:
		if c.Op == token.NEQ {
			return b.Succs[1]
		}
		return b.Succs[0]
	case *ssa.Call: // bytes.Equal, strings.EqualFold
		return b.Succs[0]
	}
	return nil
}

// comparisonBranches returns the blocks ending in an If whose condition compares
// the value read from v for equality with a value that other accepts: for an
// owner check, one that is not a constant (not an emptiness test).
func comparisonBranches(v ssa.Value, other func(ssa.Value) bool, depth int) []*ssa.BasicBlock {
	if depth > 8 || v.Referrers() == nil {
		return nil
	}
	var out []*ssa.BasicBlock
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.Extract:
			if !isErrorType(r.Type()) {
				out = append(out, comparisonBranches(r, other, depth+1)...)
			}
		case *ssa.ChangeType, *ssa.MakeInterface, *ssa.Convert:
			out = append(out, comparisonBranches(r.(ssa.Value), other, depth+1)...)
		case *ssa.FieldAddr:
			if ssautil.Embedded(r.X.Type(), r.Field) {
				out = append(out, comparisonBranches(r, other, depth+1)...)
			}
		case *ssa.Call:
			if derivesReply(r, v) {
				out = append(out, comparisonBranches(r, other, depth+1)...)
			} else if isBool(r.Type()) && slices.ContainsFunc(r.Call.Args, func(a ssa.Value) bool { return a != v && other(a) }) {
				out = append(out, branchesOn(r)...) // bytes.Equal, strings.EqualFold
			}
		case *ssa.BinOp:
			if (r.Op == token.EQL || r.Op == token.NEQ) && (r.X == v && other(r.Y) || r.Y == v && other(r.X)) {
				out = append(out, branchesOn(r)...)
			}
		}
	}
	return out
}

// derivesReply reports whether call reads the reply v: a method of a command
// object (Val, Result) or a redigo converter.
func derivesReply(call *ssa.Call, v ssa.Value) bool {
	obj, recv, _ := ssautil.Callee(call.Common())
	if obj == nil || obj.Pkg() == nil || !clients.IsClient(obj.Pkg().Path()) {
		return false
	}
	if recv == v {
		return obj.Name() != "Err"
	}
	row := clients.Lookup(obj.Pkg().Path(), "", obj.Name())
	return row != nil && row.Role == clients.Convert
}

func branchesOn(cond ssa.Value) []*ssa.BasicBlock {
	return branchesOnSeen(cond, map[ssa.Value]bool{})
}

func branchesOnSeen(cond ssa.Value, seen map[ssa.Value]bool) []*ssa.BasicBlock {
	if seen[cond] {
		return nil
	}
	seen[cond] = true
	var out []*ssa.BasicBlock
	for _, ref := range *cond.Referrers() {
		switch r := ref.(type) {
		case *ssa.If, *ssa.Return:
			// A returned comparison is its caller's to branch on.
			out = append(out, r.Block())
		case *ssa.UnOp:
			if r.Op == token.NOT {
				out = append(out, branchesOnSeen(r, seen)...)
			}
		case *ssa.Phi:
			// got != "" && got == value: the comparison decides the
			// conjunction it ends.
			out = append(out, branchesOnSeen(r, seen)...)
		}
	}
	return out
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// endsWork reports whether nothing but the command's own reply, logging and
// error wrapping runs after op in its function: it is the function's last
// act, as a release's is.
func endsWork(op *Op) bool {
	b := op.Instr.Block()
	if b == nil {
		return false
	}
	rest := b.Instrs[indexOf(b, op.Instr)+1:]
	seen := map[*ssa.BasicBlock]bool{b: true}
	stack := append([]*ssa.BasicBlock(nil), b.Succs...)
	for {
		for _, instr := range rest {
			if call, ok := instr.(ssa.CallInstruction); ok && !clientCall(call) && !bookkeeping(call) {
				return false
			}
		}
		if len(stack) == 0 {
			return true
		}
		next := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[next] {
			rest = nil
			continue
		}
		seen[next] = true
		rest = next.Instrs
		stack = append(stack, next.Succs...)
	}
}

// bookkeeping reports calls that log or wrap errors.
func bookkeeping(call ssa.CallInstruction) bool {
	obj, _, _ := ssautil.Callee(call.Common())
	return obj != nil && (logging.Logs(obj) || logging.Formats(obj))
}
