// Package edit holds what the checks' suggested fixes share: finding the syntax
// behind an SSA call, rendering expressions, and telling whether an expression
// may move to another place in the same function.
package edit

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"os"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// CallAt returns the call whose opening parenthesis is at lparen (where SSA puts
// a call's position), the file it is in, and the path from it up to the file.
func CallAt(pass *analysis.Pass, lparen token.Pos) (*ast.File, *ast.CallExpr, []ast.Node) {
	for _, f := range pass.Files {
		if lparen < f.FileStart || lparen > f.FileEnd {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, lparen, lparen+1)
		for _, n := range path {
			if call, ok := n.(*ast.CallExpr); ok && call.Lparen == lparen {
				return f, call, path
			}
		}
		return f, nil, nil
	}
	return nil, nil, nil
}

// Text renders an expression as gofmt would.
func Text(fset *token.FileSet, n ast.Node) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, n); err != nil {
		return ""
	}
	return b.String()
}

// Movable reports whether expr refers only to names that are declared before pos
// and visible there, so that it can be copied to pos.
func Movable(info *types.Info, expr ast.Expr, pos token.Pos) bool {
	ok := true
	ast.Inspect(expr, func(n ast.Node) bool {
		id, isIdent := n.(*ast.Ident)
		if !isIdent || !ok {
			return ok
		}
		obj := info.Uses[id]
		if _, isImport := obj.(*types.PkgName); isImport {
			return true
		}
		if obj == nil || obj.Parent() == nil || obj.Parent() == types.Universe || obj.Parent().Parent() == types.Universe {
			return true // fields, methods, universe and package-level names
		}
		if obj.Pos() >= pos || !obj.Parent().Contains(pos) {
			ok = false
		}
		return ok
	})
	return ok
}

// Statement returns the statement that consists of nothing but the call at the
// end of path (possibly followed by .Err() or .Result()), for deleting it.
func Statement(path []ast.Node, call *ast.CallExpr) ast.Stmt {
	var inner ast.Node = call
	for _, n := range path {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if x.X == inner {
				inner = x
			}
		case *ast.CallExpr:
			if x == call || x.Fun == inner {
				inner = x
			}
		case *ast.ExprStmt:
			if x.X == inner {
				return x
			}
			return nil
		case *ast.DeferStmt:
			if x.Call == inner {
				return x
			}
			return nil
		}
	}
	return nil
}

// LineEdit widens [pos, end) to whole lines when the range is alone on its lines,
// so that deleting a statement leaves no blank line behind.
func LineEdit(fset *token.FileSet, src []byte, pos, end token.Pos) analysis.TextEdit {
	tf := fset.File(pos)
	start, stop := tf.Offset(pos), tf.Offset(end)
	ls := start
	for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
		ls--
	}
	le := stop
	for le < len(src) && (src[le] == ' ' || src[le] == '\t') {
		le++
	}
	if (ls == 0 || src[ls-1] == '\n') && le < len(src) && src[le] == '\n' {
		return analysis.TextEdit{Pos: tf.Pos(ls), End: tf.Pos(le + 1)}
	}
	return analysis.TextEdit{Pos: pos, End: end}
}

// ReadFile returns a source file of the package. Drivers that predate
// Pass.ReadFile (staticcheck's runner, older golangci-lint) leave it nil.
func ReadFile(pass *analysis.Pass, name string) ([]byte, error) {
	if pass.ReadFile != nil {
		return pass.ReadFile(name)
	}
	return os.ReadFile(name)
}
