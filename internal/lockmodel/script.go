package lockmodel

import (
	"go/ast"
	"go/constant"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// scriptSource finds the text of Lua scripts: string constants and their
// concatenations, package-level variables initialised with them, and variables
// filled by //go:embed from a file of the package.
type scriptSource struct {
	inits  map[*ssa.Global]ssa.Value
	embeds map[string]string // package-level variable name → embedded file text
}

func newScriptSource(pass *analysis.Pass, inits map[*ssa.Global]ssa.Value) *scriptSource {
	return &scriptSource{inits: inits, embeds: embeddedStrings(pass)}
}

func (s *scriptSource) text(v ssa.Value) (string, bool) {
	return s.textDepth(v, 0)
}

func (s *scriptSource) textDepth(v ssa.Value, depth int) (string, bool) {
	if depth > 16 {
		return "", false
	}
	v = unwrap(v)
	switch x := v.(type) {
	case *ssa.Const:
		return constString(x)
	case *ssa.BinOp:
		if x.Op != token.ADD {
			return "", false
		}
		l, ok1 := s.textDepth(x.X, depth+1)
		r, ok2 := s.textDepth(x.Y, depth+1)
		return l + r, ok1 && ok2
	case *ssa.UnOp:
		g, ok := x.X.(*ssa.Global)
		if !ok {
			return "", false
		}
		if t, ok := s.embeds[g.Name()]; ok {
			return t, true
		}
		if init, ok := s.inits[g]; ok {
			return s.textDepth(init, depth+1)
		}
	}
	return "", false
}

// embeddedStrings reads the files named by //go:embed on package-level string or
// []byte variables. Only single, plain file names are read: a pattern would need
// the go command's rules, and the file must sit in the package's directory tree.
func embeddedStrings(pass *analysis.Pass) map[string]string {
	m := make(map[string]string)
	for _, f := range pass.Files {
		if !importsEmbed(f) {
			continue
		}
		dir := filepath.Dir(pass.Fset.File(f.Pos()).Name())
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				doc := vs.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				name := embedFile(doc)
				if name == "" || len(vs.Names) != 1 {
					continue
				}
				data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
				if err == nil {
					m[vs.Names[0].Name] = string(data)
				}
			}
		}
	}
	return m
}

func importsEmbed(f *ast.File) bool {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"embed"` {
			return true
		}
	}
	return false
}

func embedFile(doc *ast.CommentGroup) string {
	if doc == nil {
		return ""
	}
	for _, c := range doc.List {
		rest, ok := strings.CutPrefix(c.Text, "//go:embed ")
		if !ok {
			continue
		}
		name := strings.TrimSpace(rest)
		if strings.ContainsAny(name, " *?[\"`") || strings.Contains(name, "..") || filepath.IsAbs(name) {
			return ""
		}
		return name
	}
	return ""
}

func constInt(v ssa.Value) (int, bool) {
	c, ok := unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(c.Value)
	return int(n), exact && n >= 0 && n < 1<<16
}
