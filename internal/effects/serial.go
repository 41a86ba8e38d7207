package effects

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/sqlcall"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// serializer is a statement that lets only one caller make some writes of its
// function: a row lock (SELECT … FOR UPDATE, or a queue claim's locking
// subquery), or a claim: a write that admits one caller (a compare-and-set
// on the row's state, an INSERT … ON CONFLICT DO NOTHING) whose row count the
// code branches on, or a call of a function whose result says whether it won
// one.
type serializer struct {
	call  ssa.CallInstruction
	sql   *sqlcall.Call     // the statement; nil for a claim made in a callee
	claim bool              // a claim, not a row lock
	won   []*ssa.BasicBlock // the blocks only a claim's winner runs
	lost  []*ssa.BasicBlock // the blocks only a loser runs
	count ssa.Value         // a claim's row count, when the code has it as a value
}

// serializers returns the serializers among n's calls.
func (s *summariser) serializers(n *node) []serializer {
	var out []serializer
	for _, call := range n.calls {
		if q := s.res.SQL.Calls[call]; q != nil {
			switch {
			case !q.Known:
			case q.Stmt.Locking != "":
				out = append(out, serializer{call: call, sql: q})
			case q.Stmt.AdmitsOne() && q.Result != nil:
				won, lost := sqlcall.Branches(q)
				ser := serializer{call: call, sql: q, claim: true, won: won, lost: lost}
				if counts := sqlcall.RowCounts(q.Result); len(counts) > 0 {
					ser.count = counts[0]
				}
				out = append(out, ser)
			}
			continue
		}
		if eff := s.callee(call); eff != nil && eff.Claim != nil {
			won, lost := claimBranches(call, eff.Claim)
			ser := serializer{call: call, claim: true, won: won, lost: lost}
			if eff.Claim.Won == Count {
				ser.count = resultOf(call, eff.Claim.Result)
			}
			out = append(out, ser)
		}
	}
	return out
}

// serialized reports whether a serializer of its function already lets only
// one caller make a write: a row lock earlier in its transaction, or a claim
// with the write on its winner's branch, or before it in its transaction,
// which the loser does not get to commit. A call of a function that is given
// the transaction counts as a write in it. txParam is above 0 when a row lock
// earlier on the same handle serializes it if that handle, parameter
// txParam-1 of the function, is a transaction.
func serialized(call ssa.CallInstruction, res *Result, sers []serializer) (ser bool, txParam int) {
	onHandle := func(h ssa.Value) bool {
		if c := res.SQL.Calls[call]; c != nil {
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
		inTx := s.sql != nil && s.sql.InTx && s.sql.Handle != nil && onHandle(s.sql.Handle)
		if !s.claim {
			if inTx && s.call.Pos() < call.Pos() {
				return true, 0
			}
			if s.sql != nil && s.sql.Handle != nil && s.call.Pos() < call.Pos() && onHandle(s.sql.Handle) {
				if n := paramOf(s.sql.Handle, ssautil.Root(call.Parent())); n >= 0 {
					txParam = n + 1
				}
			}
			continue
		}
		if inTx && len(s.won) > 0 && call.Pos() < s.call.Pos() {
			return true, 0
		}
		if dominated(call.Block(), s.won) {
			return true, 0
		}
	}
	return false, txParam
}

// dominated reports whether one of blocks, of b's function, dominates b.
func dominated(b *ssa.BasicBlock, blocks []*ssa.BasicBlock) bool {
	for _, w := range blocks {
		if w.Parent() == b.Parent() && w.Dominates(b) {
			return true
		}
	}
	return false
}

// claimBranches returns the blocks that run only when a call of a function
// with claim c says its caller won, and those that run only when it says it
// lost.
func claimBranches(call ssa.CallInstruction, c *Claim) (won, lost []*ssa.BasicBlock) {
	v := resultOf(call, c.Result)
	if v == nil || v.Referrers() == nil {
		return nil, nil
	}
	switch c.Won {
	case Count:
		return sqlcall.CountBranches(v)
	case True:
		if b := ssautil.Successor(v, true); b != nil {
			won = append(won, b)
		}
		if b := ssautil.Successor(v, false); b != nil {
			lost = append(lost, b)
		}
		return won, lost
	}
	for _, ref := range *v.Referrers() {
		cmp, ok := ref.(*ssa.BinOp)
		if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) || !isNil(cmp.X) && !isNil(cmp.Y) {
			continue
		}
		if b := ssautil.Successor(cmp, cmp.Op == token.EQL); b != nil {
			won = append(won, b)
		}
		if b := ssautil.Successor(cmp, cmp.Op == token.NEQ); b != nil {
			lost = append(lost, b)
		}
	}
	return won, lost
}

// resultOf returns the value of result i of call, nil when the code drops it.
func resultOf(call ssa.CallInstruction, i int) ssa.Value {
	c, ok := call.(*ssa.Call)
	if !ok {
		return nil
	}
	if c.Call.Signature().Results().Len() == 1 {
		if i == 0 {
			return c
		}
		return nil
	}
	if ex := ssautil.Extract(c, i); ex != nil {
		return ex
	}
	return nil
}

// claim returns the claim n's function makes for its callers: it makes a
// claim itself, outside any loop, and its result tells who won. A nil error (or true) may then
// come only from the winner's branch, and the loser's branch returns an
// error (false); or the function returns the claim's row count.
func (s *summariser) claim(n *node, sers []serializer) *Claim {
	fn := n.fn
	results := fn.Signature.Results()
	var won, lost []*ssa.BasicBlock
	var table string
	var counts []ssa.Value
	for _, ser := range sers {
		// A claim in a loop is retried, or made once per row: its winning
		// answer does not mean this caller was the only one through.
		if !ser.claim || ser.call.Parent() != fn || inLoop(ser.call) {
			continue
		}
		won, lost = append(won, ser.won...), append(lost, ser.lost...)
		if ser.count != nil {
			counts = append(counts, ser.count)
		}
		if ser.sql != nil {
			table = firstOf(table, ser.sql.Stmt.Table)
		} else if eff := s.callee(ser.call); eff != nil && eff.Claim != nil {
			table = firstOf(table, eff.Claim.Table)
		}
	}
	if len(won)+len(counts) == 0 || results.Len() == 0 {
		return nil
	}
	var rets []*ssa.Return
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			rets = append(rets, r)
		}
	}
	for i := range results.Len() {
		t := results.At(i).Type()
		switch {
		case isErrorType(t) && i == results.Len()-1 && len(won) > 0:
			if nilOnlyWon(rets, i, won) {
				return &Claim{Result: i, Won: NilError, Table: table}
			}
		case isBool(t):
			if trueOnlyWon(rets, i, won, counts) {
				return &Claim{Result: i, Won: True, Table: table}
			}
		}
		for _, r := range rets {
			for _, c := range counts {
				if ssautil.Unwrap(r.Results[i]) == c {
					return &Claim{Result: i, Won: Count, Table: table}
				}
			}
		}
	}
	return nil
}

// nilOnlyWon reports whether every return of a nil error (result i) is on a
// winner's branch, and some return is not: nil then means the caller won.
func nilOnlyWon(rets []*ssa.Return, i int, won []*ssa.BasicBlock) bool {
	other := false
	for _, r := range rets {
		in := dominated(r.Block(), won)
		if isNil(r.Results[i]) && !in {
			return false
		}
		other = other || !in
	}
	return other
}

// trueOnlyWon reports whether every return of bool result i says true only
// on a winner's branch, or as the test that the claim changed a row, and
// some return says true.
func trueOnlyWon(rets []*ssa.Return, i int, won []*ssa.BasicBlock, counts []ssa.Value) bool {
	some := false
	for _, r := range rets {
		ok, yes := winsIfTrue(r.Results[i], r.Block(), won, counts, 0)
		if !ok {
			return false
		}
		some = some || yes
	}
	return some
}

// winsIfTrue reports whether v, returned from block b, is true only for the
// winner (ok), and whether it can be true at all (yes): false; true on a
// winner's branch; a comparison of the row count that holds for 1 and not
// for 0; or a phi of those, as && and || leave.
func winsIfTrue(v ssa.Value, b *ssa.BasicBlock, won []*ssa.BasicBlock, counts []ssa.Value, depth int) (ok, yes bool) {
	v = ssautil.Unwrap(v)
	switch x := v.(type) {
	case *ssa.Const:
		if !isTrue(x) {
			return true, false
		}
		return dominated(b, won), true
	case *ssa.BinOp:
		for _, n := range counts {
			if x.X == n || x.Y == n {
				holds, tells := sqlcall.OneHolds(x, n)
				return tells && holds, true
			}
		}
	case *ssa.Phi:
		if depth > 4 {
			return false, false
		}
		for k, e := range x.Edges {
			ok, y := winsIfTrue(e, x.Block().Preds[k], won, counts, depth+1)
			if !ok {
				return false, false
			}
			yes = yes || y
		}
		return true, yes
	}
	return false, false
}

func isNil(v ssa.Value) bool {
	c, ok := ssautil.Unwrap(v).(*ssa.Const)
	return ok && c.IsNil()
}

func isTrue(v ssa.Value) bool {
	c, ok := ssautil.Unwrap(v).(*ssa.Const)
	return ok && c.Value != nil && c.Value.String() == "true"
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
