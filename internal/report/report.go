// Package report is the one way lockvet's checks emit diagnostics, so that no
// check can forget the rules every diagnostic obeys: nothing is reported in
// generated files, whose authors cannot act on it.
package report

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// At reports msg at the node or position range [pos, end), with optional fixes.
func At(pass *analysis.Pass, pos, end token.Pos, msg string, fixes ...analysis.SuggestedFix) {
	if f := fileOf(pass, pos); f == nil || ast.IsGenerated(f) {
		return
	}
	pass.Report(analysis.Diagnostic{Pos: pos, End: end, Message: msg, SuggestedFixes: fixes})
}

func fileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}
