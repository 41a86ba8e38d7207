package sqlcall

import (
	"testing"

	"github.com/lockvet/lockvet/internal/testcases"
)

// TestRowsAreReal checks that every row of the SQL tables names a function
// or method of the library version the test module pins.
func TestRowsAreReal(t *testing.T) {
	byPath := testcases.Pinned(t, "testcases/sqlcall/pinned")
	var keys []key
	for k := range methods {
		keys = append(keys, k)
	}
	for k := range prepares {
		keys = append(keys, k)
	}
	for k := range chainRows {
		keys = append(keys, k)
	}
	for name := range gormFinishers {
		keys = append(keys, key{gormPath, "DB", name})
	}
	for name := range gormChain {
		keys = append(keys, key{gormPath, "DB", name})
	}
	for _, k := range keys {
		pkg := byPath[k.path]
		if pkg == nil {
			t.Errorf("row %s.%s.%s: package not pinned in testdata/src (add it to sqlcall/pinned)", k.path, k.recv, k.name)
			continue
		}
		if !testcases.Declares(pkg, k.recv, k.name) {
			t.Errorf("row %s.%s.%s: no such function in %s", k.path, k.recv, k.name, pkg.Path())
		}
	}
}
