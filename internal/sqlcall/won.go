package sqlcall

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// WonBranches returns the blocks that run only when the statement changed a
// row: of each If on its row count (RowsAffected of the sql.Result or
// pgconn.CommandTag, gorm's RowsAffected field) compared with a constant, the
// successor a count of 1 takes and a count of 0 does not, when that successor
// is entered from the If alone. After a conditional write, that is the code
// only the caller who won runs.
func WonBranches(c *Call) []*ssa.BasicBlock {
	if c.Result == nil {
		return nil
	}
	var out []*ssa.BasicBlock
	for _, n := range rowCounts(c.Result) {
		for _, ref := range *n.Referrers() {
			cmp, ok := ref.(*ssa.BinOp)
			if !ok {
				continue
			}
			if b := winnerOf(cmp, n); b != nil {
				out = append(out, b)
			}
		}
	}
	return out
}

// rowCounts returns the values that hold how many rows the statement changed.
func rowCounts(result ssa.Value) []ssa.Value {
	var out []ssa.Value
	for _, ref := range *result.Referrers() {
		switch x := ref.(type) {
		case *ssa.Call:
			obj, recv, _ := ssautil.Callee(x.Common())
			if obj == nil || recv != result || obj.Name() != "RowsAffected" {
				continue
			}
			if _, ok := x.Type().(*types.Tuple); ok { // (int64, error): the count is the first
				for _, r := range *x.Referrers() {
					if ex, ok := r.(*ssa.Extract); ok && ex.Index == 0 {
						out = append(out, ex)
					}
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

// winnerOf returns the successor of the If on cmp, a comparison of the count n
// with a constant, that a count of 1 takes and a count of 0 does not, when it
// has no other way in.
func winnerOf(cmp *ssa.BinOp, n ssa.Value) *ssa.BasicBlock {
	var k *ssa.Const
	op := cmp.Op
	if mirror(op) == 0 {
		return nil
	}
	switch {
	case cmp.X == n:
		k, _ = cmp.Y.(*ssa.Const)
	case cmp.Y == n:
		k, _ = cmp.X.(*ssa.Const)
		op = mirror(op)
	}
	if k == nil || k.Value == nil || k.Value.Kind() != constant.Int {
		return nil
	}
	one := constant.Compare(constant.MakeInt64(1), op, k.Value)
	zero := constant.Compare(constant.MakeInt64(0), op, k.Value)
	if one == zero {
		return nil // the comparison does not tell the winner from the loser
	}
	taken := 0 // the successor taken when cmp holds
	if !one {
		taken = 1
	}
	return soleSuccessor(cmp, taken, 0)
}

// soleSuccessor returns the successor of an If on cond, looking through
// negations, that is taken when cond holds (taken 0) or not (1), when the If is
// its only way in.
func soleSuccessor(cond ssa.Value, taken, depth int) *ssa.BasicBlock {
	if depth > 4 {
		return nil
	}
	for _, ref := range *cond.Referrers() {
		switch x := ref.(type) {
		case *ssa.If:
			if s := x.Block().Succs[taken]; len(s.Preds) == 1 {
				return s
			}
		case *ssa.UnOp:
			if x.Op != token.NOT {
				continue
			}
			if s := soleSuccessor(x, 1-taken, depth+1); s != nil {
				return s
			}
		}
	}
	return nil
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
