package clients

import (
	"testing"

	"github.com/lockvet/lockvet/internal/testcases"
)

// TestRowsAreReal checks that every row of the table names a function or
// method that exists in the library version the test module pins: a typo or
// a renamed method would otherwise make a row match nothing, silently.
func TestRowsAreReal(t *testing.T) {
	byPath := testcases.Pinned(t, "testcases/clients/pinned")
	for _, f := range table {
		pkg := byPath[f.Path]
		if pkg == nil {
			t.Errorf("row %s.%s.%s: package not pinned in testdata/src (add it to clients/pinned)", f.Path, f.Recv, f.Name)
			continue
		}
		if !testcases.Declares(pkg, f.Recv, f.Name) {
			t.Errorf("row %s.%s.%s: no such function in %s", f.Path, f.Recv, f.Name, pkg.Path())
		}
	}
}
