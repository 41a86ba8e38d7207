package lockmodel

import (
	"go/constant"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// isZeroConst reports whether v is the constant zero (a zero TTL).
func isZeroConst(v ssa.Value) bool {
	c, ok := ssautil.Unwrap(v).(*ssa.Const)
	if !ok {
		return false
	}
	if c.Value == nil {
		return true
	}
	switch c.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(c.Value) == 0
	}
	return false
}
