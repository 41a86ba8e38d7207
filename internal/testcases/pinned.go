package testcases

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/packages"
)

// Pinned loads the test package pkg, which imports the libraries a table of
// lockvet names, and returns those libraries by path, as the test module
// pins them.
func Pinned(t *testing.T, pkg string) map[string]*types.Package {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps, Dir: Dir(t)}
	pkgs, err := packages.Load(cfg, pkg)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the pinned libraries do not load")
	}
	byPath := map[string]*types.Package{}
	for _, imp := range pkgs[0].Imports {
		byPath[imp.PkgPath] = imp.Types
	}
	return byPath
}

// Declares reports whether pkg has a function name (recv "") or a method
// name on the type recv, or, with recv "", on any of its types.
func Declares(pkg *types.Package, recv, name string) bool {
	scope := pkg.Scope()
	if recv == "" {
		if _, ok := scope.Lookup(name).(*types.Func); ok {
			return true
		}
	}
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || recv != "" && n != recv {
			continue
		}
		ms := types.NewMethodSet(types.NewPointer(tn.Type()))
		if types.IsInterface(tn.Type()) {
			ms = types.NewMethodSet(tn.Type())
		}
		if ms.Lookup(pkg, name) != nil || ms.Lookup(nil, name) != nil {
			return true
		}
	}
	return false
}
