package ssautil

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Successor returns the successor of an If on cond, looking through
// negations, that runs when cond is whenTrue, if the If is its only way in:
// the code that runs only in that case.
func Successor(cond ssa.Value, whenTrue bool) *ssa.BasicBlock {
	taken := 0
	if !whenTrue {
		taken = 1
	}
	return successor(cond, taken, 0)
}

func successor(cond ssa.Value, taken, depth int) *ssa.BasicBlock {
	if depth > 4 || cond.Referrers() == nil {
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
			if s := successor(x, 1-taken, depth+1); s != nil {
				return s
			}
		}
	}
	return nil
}
