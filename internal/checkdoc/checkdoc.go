// Package checkdoc takes a check's documentation from its package comment, as the
// x/tools passes do, so that `go doc`, `lockvet help` and the analyzer's Doc field
// say the same thing and are written once.
package checkdoc

import (
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the "# Analyzer name" section of the package comment in the
// doc.go source src: the analyzer's Doc, whose first line is its title.
func Extract(src, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil || f.Doc == nil {
		panic("checkdoc: doc.go of " + name + " has no package comment")
	}
	_, section, ok := strings.Cut(f.Doc.Text(), "# Analyzer "+name+"\n")
	if !ok {
		panic("checkdoc: doc.go of " + name + " has no \"# Analyzer " + name + "\" section")
	}
	if i := strings.Index(section, "\n# "); i >= 0 {
		section = section[:i]
	}
	return strings.TrimSpace(section)
}
