package lockmodel

import (
	"go/constant"
	"go/token"
	"strings"

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
	case *ssa.Call:
		return s.sprintf(x, depth, budget)
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

// sprintf reads a script built by fmt.Sprintf from a constant template: a
// verb whose argument is a text this reader knows is filled in, any other
// becomes the Lua name __hole__, which reads as an unknown value and leaves
// the script's shape (GET, compare, DEL) as the template has it.
func (s *scriptSource) sprintf(call *ssa.Call, depth int, budget *int) (string, bool) {
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "fmt" || callee.Name() != "Sprintf" || len(call.Call.Args) != 2 {
		return "", false
	}
	format, ok := s.textDepth(call.Call.Args[0], depth+1, budget)
	if !ok {
		return "", false
	}
	args, _ := ssautil.SliceElems(call.Call.Args[1])
	var b strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			return "", false
		}
		if format[j] == '%' {
			b.WriteByte('%')
			i = j
			continue
		}
		text := "__hole__"
		if next < len(args) {
			if t, ok := s.argText(args[next], depth, budget); ok {
				text = t
			}
		}
		next++
		if *budget -= len(text); *budget < 0 {
			return "", false
		}
		b.WriteString(text)
		i = j
	}
	return b.String(), true
}

// argText is a Sprintf argument as text: a string this reader knows, or an
// integer constant.
func (s *scriptSource) argText(v ssa.Value, depth int, budget *int) (string, bool) {
	if c, ok := ssautil.Unwrap(v).(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Int {
		return c.Value.ExactString(), true
	}
	return s.textDepth(v, depth+1, budget)
}
