package ssautil

import (
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// EmbeddedStrings reads the files named by //go:embed on package-level string or
// []byte variables, by variable name. Only single, plain file names are read: a
// pattern would need the go command's rules, and the file must sit in the
// package's directory tree.
func EmbeddedStrings(pass *analysis.Pass) map[string]string {
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
