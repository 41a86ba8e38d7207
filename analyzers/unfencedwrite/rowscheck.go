package unfencedwrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/edit"
)

// staleMessage is the error the fixed code returns for a refused write.
const staleMessage = "stale fencing token: a newer lock holder has written"

// rowsCheck returns the edits that make the statement holding call look at
// its row count: in `_, err = db.ExecContext(…)` (or :=) the result gets a
// name, and after the statement
//
//	if err == nil {
//		if n, _ := res.RowsAffected(); n == 0 {
//			err = errors.New("stale fencing token: …")
//		}
//	}
//
// so that the code the statement is followed by sees the refusal as an
// error. Other shapes (the error dropped too, the call in an if's init) get
// no edits and ok false.
func rowsCheck(pass *analysis.Pass, file *ast.File, call *ast.CallExpr, path []ast.Node) ([]analysis.TextEdit, bool) {
	as, ok := parentOf(path, call).(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 || as.Rhs[0] != call {
		return nil, false
	}
	if _, inBlock := parentOf(path, as).(*ast.BlockStmt); !inBlock {
		return nil, false
	}
	errID, ok := as.Lhs[1].(*ast.Ident)
	if !ok || errID.Name == "_" || !isError(pass.TypesInfo.TypeOf(errID)) {
		return nil, false
	}
	resType := pass.TypesInfo.TypeOf(call)
	if tuple, ok := resType.(*types.Tuple); ok && tuple.Len() == 2 {
		resType = tuple.At(0).Type()
	}
	single, ok := rowsAffected(resType)
	if !ok {
		return nil, false
	}
	var edits []analysis.TextEdit
	res, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, false
	}
	name := res.Name
	if name == "_" {
		scope := innermost(pass, file, as.Pos())
		name = fresh(scope, as.Pos(), "res")
		edits = append(edits, analysis.TextEdit{Pos: res.Pos(), End: res.End(), NewText: []byte(name)})
		if as.Tok == token.ASSIGN {
			// := declares the result and reuses err, if err lives in the
			// statement's own scope; elsewhere it would shadow it.
			if obj := pass.TypesInfo.ObjectOf(errID); obj == nil || obj.Parent() != scope {
				return nil, false
			}
			edits = append(edits, analysis.TextEdit{Pos: as.TokPos, End: as.TokPos + token.Pos(len("=")), NewText: []byte(":=")})
		}
	}
	newErr, imp := errorsCall(file)
	count := fmt.Sprintf("if n, _ := %s.RowsAffected(); n == 0 {", name)
	if single {
		count = fmt.Sprintf("if %s.RowsAffected() == 0 {", name)
	}
	indent, eol := lineOf(pass, as)
	check := fmt.Sprintf("\n%[1]sif %[2]s == nil {\n%[1]s\t%[3]s\n%[1]s\t\t%[2]s = %[4]s(%[5]s)\n%[1]s\t}\n%[1]s}",
		indent, errID.Name, count, newErr, strconv.Quote(staleMessage))
	edits = append(edits, analysis.TextEdit{Pos: eol, End: eol, NewText: []byte(check)})
	if imp != nil {
		edits = append(edits, *imp)
	}
	return edits, true
}

// rowsAffected reports whether t has a RowsAffected method, and whether it
// returns the count alone (pgx's CommandTag) or with an error (sql.Result).
func rowsAffected(t types.Type) (single, ok bool) {
	if t == nil {
		return false, false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "RowsAffected")
	fn, isFunc := obj.(*types.Func)
	if !isFunc {
		return false, false
	}
	sig := fn.Type().(*types.Signature)
	switch sig.Results().Len() {
	case 1:
		return true, true
	case 2:
		return false, isError(sig.Results().At(1).Type())
	}
	return false, false
}

func isError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// parentOf returns the node that holds n in path, which runs from the
// innermost node outwards.
func parentOf(path []ast.Node, n ast.Node) ast.Node {
	for i, p := range path {
		if p == n && i+1 < len(path) {
			return path[i+1]
		}
	}
	return nil
}

// innermost returns the scope at pos.
func innermost(pass *analysis.Pass, file *ast.File, pos token.Pos) *types.Scope {
	fileScope := pass.TypesInfo.Scopes[file]
	if fileScope == nil {
		return nil
	}
	return fileScope.Innermost(pos)
}

// fresh returns base, or base2, base3, …, the first not visible at pos.
func fresh(scope *types.Scope, pos token.Pos, base string) string {
	name := base
	for i := 2; scope != nil; i++ {
		if _, obj := scope.LookupParent(name, pos); obj == nil {
			break
		}
		name = base + strconv.Itoa(i)
	}
	return name
}

// lineOf returns the white space that starts n's first line, and where its
// last line ends, after any comment there.
func lineOf(pass *analysis.Pass, n ast.Node) (string, token.Pos) {
	tf := pass.Fset.File(n.Pos())
	src, err := edit.ReadFile(pass, tf.Name())
	if err != nil {
		return "\t", n.End()
	}
	start := tf.Offset(tf.LineStart(tf.Line(n.Pos())))
	indent := start
	for indent < len(src) && (src[indent] == ' ' || src[indent] == '\t') {
		indent++
	}
	eol := tf.Offset(n.End())
	for eol < len(src) && src[eol] != '\n' {
		eol++
	}
	return string(src[start:indent]), tf.Pos(eol)
}

// errorsCall returns how the file can call errors.New, and the edit that
// imports package errors when it does not yet.
func errorsCall(file *ast.File) (string, *analysis.TextEdit) {
	for _, spec := range file.Imports {
		if path, _ := strconv.Unquote(spec.Path.Value); path == "errors" {
			if spec.Name != nil {
				if spec.Name.Name == "_" || spec.Name.Name == "." {
					break
				}
				return spec.Name.Name + ".New", nil
			}
			return "errors.New", nil
		}
	}
	return "errors.New", importErrors(file)
}

// importErrors returns an edit that adds "errors" to the file's imports, in
// sorted place among the standard library's.
func importErrors(file *ast.File) *analysis.TextEdit {
	for _, decl := range file.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if !gd.Lparen.IsValid() {
			return &analysis.TextEdit{Pos: gd.Pos(), End: gd.Pos(), NewText: []byte("import \"errors\"\n")}
		}
		var lastStd ast.Spec
		for _, spec := range gd.Specs {
			path, _ := strconv.Unquote(spec.(*ast.ImportSpec).Path.Value)
			switch {
			case strings.Contains(path, "."):
				if lastStd != nil {
					return &analysis.TextEdit{Pos: lastStd.End(), End: lastStd.End(), NewText: []byte("\n\t\"errors\"")}
				}
				return &analysis.TextEdit{Pos: spec.Pos(), End: spec.Pos(), NewText: []byte("\"errors\"\n\n\t")}
			case path > "errors":
				return &analysis.TextEdit{Pos: spec.Pos(), End: spec.Pos(), NewText: []byte("\"errors\"\n\t")}
			}
			lastStd = spec
		}
		return &analysis.TextEdit{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\t\"errors\"\n")}
	}
	return &analysis.TextEdit{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport \"errors\"")}
}
