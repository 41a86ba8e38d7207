package effects

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// pureFuncs names the functions and methods (F, T.M) of a package the pass
// did not summarise (one that runs no SQL) whose bodies lockvet can see only
// compute: a utility package's FloatAdd or RandomString called under a lock
// does nothing a check asks about. Without it such a call is unknown. It is
// one fact per package, sorted, not one per function: every importer
// decodes the facts of all it imports, and a fact per function made that the
// larger part of lockvet's cost on a big module.
type pureFuncs struct{ Names []string }

func (*pureFuncs) AFact()         {}
func (*pureFuncs) String() string { return "pure" }

// isPure reports whether fn, of another package, is one its package's fact
// names.
func isPure(pass *analysis.Pass, fn *types.Func) bool {
	var f pureFuncs
	if fn.Pkg() == nil || !pass.ImportPackageFact(fn.Pkg(), &f) {
		return false
	}
	_, ok := slices.BinarySearch(f.Names, funcName(fn))
	return ok
}

func funcName(fn *types.Func) string {
	if recv := ssautil.RecvName(fn); recv != "" {
		return recv + "." + fn.Name()
	}
	return fn.Name()
}

// exportPure marks the pure exported functions and methods of a package
// outside the standard library, whose calls the table judges already. It
// reads the syntax, not SSA: the packages it runs on are most of a program,
// and none of them can hold a lock.
func exportPure(pass *analysis.Pass) {
	if len(pass.Files) == 0 || standard(pass) {
		return
	}
	p := &purity{pass: pass, decls: map[*types.Func]*ast.FuncDecl{}, memo: map[*types.Func]bool{}}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					p.decls[obj] = fd
				}
			}
		}
	}
	var names []string
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && p.pure(obj) {
				names = append(names, funcName(obj))
			}
		}
	}
	if len(names) > 0 {
		slices.Sort(names)
		pass.ExportPackageFact(&pureFuncs{Names: slices.Compact(names)})
	}
}

// standard reports a package of the standard library, which the table
// judges: its path has no domain, and its files sit in GOROOT's src/<path>
// (a test module named without a domain does not).
func standard(pass *analysis.Pass) bool {
	path := pass.Pkg.Path()
	if strings.Contains(strings.SplitN(path, "/", 2)[0], ".") {
		return false
	}
	dir := filepath.ToSlash(filepath.Dir(pass.Fset.File(pass.Files[0].Pos()).Name()))
	return strings.HasSuffix(dir, "/src/"+path)
}

type purity struct {
	pass  *analysis.Pass
	decls map[*types.Func]*ast.FuncDecl
	memo  map[*types.Func]bool
}

// pure reports whether obj, a function of the package, only computes: every
// call it makes is a conversion, a builtin, a pure function of the package,
// or a call the table or an imported fact says is pure; no func value or
// interface method is called, no goroutine started, no channel used. A
// function being decided is taken as pure by its own recursive calls.
func (p *purity) pure(obj *types.Func) bool {
	if v, ok := p.memo[obj]; ok {
		return v
	}
	fd := p.decls[obj]
	if fd == nil {
		return false
	}
	p.memo[obj] = true
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch x := n.(type) {
		case *ast.GoStmt, *ast.SendStmt, *ast.SelectStmt:
			ok = false
		case *ast.UnaryExpr:
			ok = x.Op != token.ARROW
		case *ast.RangeStmt:
			if t := p.pass.TypesInfo.TypeOf(x.X); t != nil {
				if _, isChan := t.Underlying().(*types.Chan); isChan {
					ok = false
				}
				if _, isFunc := t.Underlying().(*types.Signature); isFunc {
					ok = false // range over func: the iterator runs code
				}
			}
		case *ast.CallExpr:
			ok = p.pureCall(x)
		}
		return ok
	})
	p.memo[obj] = ok
	return ok
}

func (p *purity) pureCall(call *ast.CallExpr) bool {
	info := p.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return true // a conversion
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, ok := info.Uses[id].(*types.Builtin); ok {
			return true
		}
	}
	callee, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return false // a func value
	}
	if sig, ok := callee.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return callee.Pkg() == nil // only error.Error
	}
	callee = callee.Origin()
	if callee.Pkg() == p.pass.Pkg {
		return p.pure(callee)
	}
	if callee.Pkg() == nil {
		return true
	}
	if isPure(p.pass, callee) {
		return true
	}
	return classify(callee.Pkg().Path(), ssautil.RecvName(callee), callee.Name()) == pure
}
