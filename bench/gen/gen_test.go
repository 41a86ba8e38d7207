package gen

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const testGoMod = `module example.com/x

go 1.26.0

require (
	github.com/google/uuid v1.6.0
	github.com/redis/go-redis/v9 v9.23.0
)
`

// TestGenerate checks that a small module parses, that its imports form a DAG
// over packages that exist, each service's own plus the shared ones, and that
// the shares come out as asked.
func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Packages: 250, Service: 120, Seed: 7, GoMod: []byte(testGoMod), GoSum: []byte("")}
	st, err := Generate(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 20 shared packages, then services of 120 and 110 packages: 3% of each are
	// lock users and 3% repositories, 4 and 3 of each.
	if st.Packages != 250 || st.Services != 2 || st.Lock != 7 || st.SQL != 7 || st.Layers != 4 {
		t.Errorf("stats = %+v", st)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.HasPrefix(string(mod), "module "+ModulePath+"\n") {
		t.Fatalf("go.mod = %q, %v", mod, err)
	}

	// place is a package's service and layer, from its path benchgen/sNN/lNN/pNNNNN.
	place := func(path string) (service, layer int) {
		parts := strings.Split(path, "/")
		service, _ = strconv.Atoi(strings.TrimPrefix(parts[1], "s"))
		layer, _ = strconv.Atoi(strings.TrimPrefix(parts[2], "l"))
		return service, layer
	}
	fset := token.NewFileSet()
	pkgs := map[string]bool{}
	imports := map[string][]string{}
	redis := 0
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, filepath.Dir(path))
		ip := ModulePath + "/" + filepath.ToSlash(rel)
		pkgs[ip] = true
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if strings.HasPrefix(p, ModulePath+"/") {
				imports[ip] = append(imports[ip], p)
			}
			if p == "github.com/redis/go-redis/v9" {
				redis++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 250 || redis != 7 {
		t.Errorf("%d packages, %d import go-redis", len(pkgs), redis)
	}
	for from, tos := range imports {
		fs, fl := place(from)
		for _, to := range tos {
			ts, tl := place(to)
			switch {
			case !pkgs[to]:
				t.Errorf("%s imports missing %s", from, to)
			case ts == fs && tl < fl:
			case ts == 0 && fl == 0 && fs > 0:
			default:
				t.Errorf("%s imports %s, neither of a lower layer of its service nor shared", from, to)
			}
		}
	}

	again := t.TempDir()
	if st2, err := Generate(again, cfg); err != nil || st2 != st {
		t.Errorf("second Generate = %+v, %v; want %+v", st2, err, st)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "s02", "l03", "p00239", "service.go"))
	b, _ := os.ReadFile(filepath.Join(again, "s02", "l03", "p00239", "service.go"))
	if len(a) == 0 || string(a) != string(b) {
		t.Errorf("output is not deterministic")
	}
}

// TestImportsDoNotGrow checks what the services are for: a package imports
// about as much of the module at 10,000 packages as at 1,000.
func TestImportsDoNotGrow(t *testing.T) {
	mean := func(n int) float64 {
		return meanImports(plan(Config{Packages: n, Service: 1000, Seed: 1, TestShare: 0.2}))
	}
	small, large := mean(1000), mean(10000)
	if large > 1.05*small {
		t.Errorf("mean transitive imports: %.0f at 1000 packages, %.0f at 10000", small, large)
	}
	t.Logf("mean transitive imports: %.0f at 1000 packages, %.0f at 10000", small, large)
}
