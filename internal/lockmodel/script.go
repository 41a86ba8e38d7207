package lockmodel

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// scriptSource finds the text of Lua scripts: string constants and their
// concatenations, package-level variables initialised with them, and variables
// filled by //go:embed from a file of the package.
type scriptSource struct {
	inits  map[*ssa.Global]ssa.Value
	embeds map[string]string // package-level variable name → embedded file text
}

func newScriptSource(pass *analysis.Pass, inits map[*ssa.Global]ssa.Value) *scriptSource {
	return &scriptSource{inits: inits, embeds: ssautil.EmbeddedStrings(pass)}
}

// maxScript bounds the bytes one script's text may take to build: depth alone
// does not, as s = s + s sixteen times over a long constant shows.
const maxScript = 64 << 20

func (s *scriptSource) text(v ssa.Value) (string, bool) {
	budget := maxScript
	return s.textDepth(v, 0, &budget)
}

func (s *scriptSource) textDepth(v ssa.Value, depth int, budget *int) (string, bool) {
	if depth > 16 {
		return "", false
	}
	v = ssautil.Unwrap(v)
	switch x := v.(type) {
	case *ssa.Const:
		return ssautil.ConstString(x)
	case *ssa.BinOp:
		if x.Op != token.ADD {
			return "", false
		}
		l, ok1 := s.textDepth(x.X, depth+1, budget)
		if !ok1 {
			return "", false
		}
		r, ok2 := s.textDepth(x.Y, depth+1, budget)
		if *budget -= len(l) + len(r); !ok2 || *budget < 0 {
			return "", false
		}
		return l + r, true
	case *ssa.UnOp:
		g, ok := x.X.(*ssa.Global)
		if !ok {
			return "", false
		}
		if t, ok := s.embeds[g.Name()]; ok {
			return t, true
		}
		if init, ok := s.inits[g]; ok {
			return s.textDepth(init, depth+1, budget)
		}
	}
	return "", false
}

func constInt(v ssa.Value) (int, bool) {
	c, ok := ssautil.Unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(c.Value)
	return int(n), exact && n >= 0 && n < 1<<16
}
