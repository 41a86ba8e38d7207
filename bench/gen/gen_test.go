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
// over packages that exist, and that the shares come out as asked.
func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	st, err := Generate(dir, Config{Packages: 120, Seed: 7, GoMod: []byte(testGoMod), GoSum: []byte("")})
	if err != nil {
		t.Fatal(err)
	}
	if st.Packages != 120 || st.Lock != 4 || st.SQL != 4 || st.Layers != 4 {
		t.Errorf("stats = %+v", st)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.HasPrefix(string(mod), "module "+ModulePath+"\n") {
		t.Fatalf("go.mod = %q, %v", mod, err)
	}

	layerOf := func(path string) int {
		l, _ := strconv.Atoi(strings.TrimPrefix(strings.Split(path, "/")[1], "l"))
		return l
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
	if len(pkgs) != 120 || redis != 4 {
		t.Errorf("%d packages, %d import go-redis", len(pkgs), redis)
	}
	for from, tos := range imports {
		for _, to := range tos {
			if !pkgs[to] {
				t.Errorf("%s imports missing %s", from, to)
			}
			if layerOf(to) >= layerOf(from) {
				t.Errorf("%s imports %s, not of a lower layer", from, to)
			}
		}
	}

	again := t.TempDir()
	if st2, err := Generate(again, Config{Packages: 120, Seed: 7, GoMod: []byte(testGoMod)}); err != nil || st2 != st {
		t.Errorf("second Generate = %+v, %v; want %+v", st2, err, st)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "l03", "p00119", "service.go"))
	b, _ := os.ReadFile(filepath.Join(again, "l03", "p00119", "service.go"))
	if len(a) == 0 || string(a) != string(b) {
		t.Errorf("output is not deterministic")
	}
}
