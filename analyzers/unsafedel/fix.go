package unsafedel

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/edit"
	"github.com/lockvet/lockvet/internal/lockmodel"
)

// The names of the package-level scripts the fix adds, one per client library.
const (
	scriptName       = "unlockScript"
	redigoScriptName = "unlockConnScript"
)

const unlockLua = `if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
end
return 0`

// compareAndDelete rewrites a plain DEL of one key into a call of a
// package-level compare-and-delete script with the owner value the lock was
// taken with. It is offered only when that value is a plain variable visible at
// the DEL, the DEL's result is not used, and the client can run scripts.
func compareAndDelete(pass *analysis.Pass, l *lockmodel.Lock, r *lockmodel.Op) []analysis.SuggestedFix {
	if l == nil {
		return nil
	}
	a := l.Acquire
	if r.Via != nil || r.Script || a.Via != nil || a.Script || a.Value == nil || a.ConstValue() ||
		pass.Pkg.Scope().Lookup(scriptName) != nil || pass.Pkg.Scope().Lookup(redigoScriptName) != nil {
		return nil
	}
	file, del, path := edit.CallAt(pass, r.Pos())
	_, acq, _ := edit.CallAt(pass, a.Pos())
	if file == nil || del == nil || acq == nil || edit.Statement(path, del) == nil {
		return nil
	}
	owner := ownerExpr(pass, acq, a)
	if owner == nil || !edit.Movable(pass.TypesInfo, owner, del.Pos()) {
		return nil
	}
	sel, ok := del.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil
	}
	pkgName := importName(file, fn.Pkg().Path())
	if pkgName == "" {
		return nil
	}
	var name, call, decl string
	text := func(n ast.Node) string { return edit.Text(pass.Fset, n) }
	switch {
	case r.Command == "DEL" && sel.Sel.Name == "Do" && len(del.Args) == 2: // redigo Do("DEL", key)
		name = redigoScriptName
		call = fmt.Sprintf("%s.Do(%s, %s, %s)", name, text(sel.X), text(del.Args[1]), text(owner))
		decl = fmt.Sprintf("%s.NewScript(1, `%s`)", pkgName, unlockLua)
	case (sel.Sel.Name == "Del" || sel.Sel.Name == "Unlink") && len(del.Args) == 2 && canRunScripts(pass, fn, sel.X):
		name = scriptName
		call = fmt.Sprintf("%s.Run(%s, %s, []string{%s}, %s)", name, text(del.Args[0]), text(sel.X), text(del.Args[1]), text(owner))
		decl = fmt.Sprintf("%s.NewScript(`%s`)", pkgName, unlockLua)
	default:
		return nil
	}
	return []analysis.SuggestedFix{{
		Message: "delete the lock only if it still holds the owner's value",
		TextEdits: []analysis.TextEdit{
			{Pos: del.Pos(), End: del.End(), NewText: []byte(call)},
			{Pos: file.End(), End: file.End(), NewText: []byte(fmt.Sprintf(
				"\n\n// %s deletes a lock only if it still holds the caller's value.\nvar %s = %s\n", name, name, decl))},
		},
	}}
}

// ownerExpr returns the value argument of the acquiring call when it is a
// variable or a field path (token, l.value), which can be read again at the DEL.
// The value follows the key in SetNX and SetArgs, and the command name and key in
// Do("SET", …) and Do("SETNX", …).
func ownerExpr(pass *analysis.Pass, acq *ast.CallExpr, a *lockmodel.Op) ast.Expr {
	var args []ast.Expr
	for _, arg := range acq.Args {
		if t := pass.TypesInfo.TypeOf(arg); t != nil && t.String() != "context.Context" {
			args = append(args, arg)
		}
	}
	i := 1
	if sel, ok := acq.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Do" {
		i = 2
	}
	if i >= len(args) || !plainPath(args[i]) {
		return nil
	}
	return args[i]
}

func plainPath(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return plainPath(x.X)
	}
	return false
}

func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return "redis"
		}
	}
	return ""
}

// canRunScripts reports whether the go-redis client x implements Scripter.
func canRunScripts(pass *analysis.Pass, fn *types.Func, x ast.Expr) bool {
	obj := fn.Pkg().Scope().Lookup("Scripter")
	t := pass.TypesInfo.TypeOf(x)
	if obj == nil || t == nil {
		return false
	}
	iface, ok := obj.Type().Underlying().(*types.Interface)
	return ok && types.Implements(t, iface)
}
