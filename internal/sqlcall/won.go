package sqlcall

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// Branches returns the blocks that run only when the statement changed a
// row, and those that run only when it changed none: of each If on its row
// count (RowsAffected of the sql.Result or pgconn.CommandTag, gorm's
// RowsAffected field) compared with a constant, the successor a count of 1
// takes and a count of 0 does not, and the other, when the If is its only way
// in. After a conditional write, won is the code only the caller who won
// runs.
func Branches(c *Call) (won, lost []*ssa.BasicBlock) {
	if c.Result == nil {
		return nil, nil
	}
	for _, n := range RowCounts(c.Result) {
		w, l := CountBranches(n)
		won, lost = append(won, w...), append(lost, l...)
	}
	return won, lost
}

// CountBranches is Branches for a row count n: a callee's result that
// carries one, as well as RowsAffected itself.
func CountBranches(n ssa.Value) (won, lost []*ssa.BasicBlock) {
	if n.Referrers() == nil {
		return nil, nil
	}
	for _, ref := range *n.Referrers() {
		cmp, ok := ref.(*ssa.BinOp)
		if !ok {
			continue
		}
		holds, ok := OneHolds(cmp, n)
		if !ok {
			continue
		}
		if b := ssautil.Successor(cmp, holds); b != nil {
			won = append(won, b)
		}
		if b := ssautil.Successor(cmp, !holds); b != nil {
			lost = append(lost, b)
		}
	}
	return won, lost
}

// RowCounts returns the values that hold how many rows the statement whose
// outcome result shows changed.
func RowCounts(result ssa.Value) []ssa.Value {
	if isCount(result.Type()) {
		return []ssa.Value{result} // the count itself: ent's Update().Save
	}
	var out []ssa.Value
	for _, ref := range *result.Referrers() {
		switch x := ref.(type) {
		case *ssa.Call:
			obj, recv, _ := ssautil.Callee(x.Common())
			if obj == nil || recv != result || obj.Name() != "RowsAffected" {
				continue
			}
			if _, ok := x.Type().(*types.Tuple); ok { // (int64, error): the count is the first
				if ex := ssautil.Extract(x, 0); ex != nil {
					out = append(out, ex)
				}
			} else {
				out = append(out, x)
			}
		case *ssa.FieldAddr:
			if field(x.X.Type(), x.Field) == "RowsAffected" {
				for _, r := range *x.Referrers() {
					if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
						out = append(out, load)
					}
				}
			}
		case *ssa.Field:
			if field(x.X.Type(), x.Field) == "RowsAffected" {
				out = append(out, x)
			}
		}
	}
	return out
}

// OneHolds reports, for cmp a comparison of the count n with a constant,
// whether it holds for a count of 1; ok is false when a count of 0 gives the
// same answer, so that the comparison does not tell the winner from the
// loser.
func OneHolds(cmp *ssa.BinOp, n ssa.Value) (holds, ok bool) {
	var k *ssa.Const
	op := cmp.Op
	if mirror(op) == 0 {
		return false, false
	}
	switch {
	case cmp.X == n:
		k, _ = cmp.Y.(*ssa.Const)
	case cmp.Y == n:
		k, _ = cmp.X.(*ssa.Const)
		op = mirror(op)
	}
	if k == nil || k.Value == nil || k.Value.Kind() != constant.Int {
		return false, false
	}
	one := constant.Compare(constant.MakeInt64(1), op, k.Value)
	zero := constant.Compare(constant.MakeInt64(0), op, k.Value)
	return one, one != zero
}

// mirror turns k OP n into n OP' k; 0 for operators that do not compare.
func mirror(op token.Token) token.Token {
	switch op {
	case token.EQL, token.NEQ:
		return op
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return 0
}
