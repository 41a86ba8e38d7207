package clients

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/internal/testcases"
)

// TestRowsAreReal checks that every row of the table names a function or
// method that exists in the library version the test module pins: a typo or
// a renamed method would otherwise make a row match nothing, silently.
func TestRowsAreReal(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps,
		Dir: testcases.Dir(t)}
	pkgs, err := packages.Load(cfg, "testcases/clients/pinned")
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
	for _, f := range table {
		pkg := byPath[f.Path]
		if pkg == nil {
			t.Errorf("row %s.%s.%s: package not pinned in testdata/src (add it to clients/pinned)", f.Path, f.Recv, f.Name)
			continue
		}
		if !declares(pkg, f.Recv, f.Name) {
			t.Errorf("row %s.%s.%s: no such function in %s", f.Path, f.Recv, f.Name, pkg.Path())
		}
	}
}

// declares reports whether pkg has a function name (recv "") or a method
// name on the type recv, or, with recv "", on any of its types.
func declares(pkg *types.Package, recv, name string) bool {
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
