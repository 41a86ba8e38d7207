package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lockvet/lockvet/internal/testcases"
)

// TestFixesCompile applies every suggested fix lockvet offers on its whole test
// module, then checks that the result still compiles and that fixing again
// changes nothing.
func TestFixesCompile(t *testing.T) {
	src := testcases.Dir(t)
	dir := filepath.Join(t.TempDir(), "src")
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	if out, code := run(t, dir, bin, "-fix", "./..."); code != 0 && code != 3 {
		t.Fatalf("lockvet -fix: exit %d\n%s", code, out)
	}
	once := snapshot(t, dir)
	if out, code := run(t, dir, "go", "build", "./..."); code != 0 {
		t.Fatalf("fixed code does not compile:\n%s", out)
	}
	if out, code := run(t, dir, bin, "-fix", "./..."); code != 0 && code != 3 {
		t.Fatalf("second lockvet -fix: exit %d\n%s", code, out)
	}
	twice := snapshot(t, dir)
	for name, content := range once {
		if twice[name] != content {
			t.Errorf("%s changed when fixed a second time", name)
		}
	}
	if orig := snapshot(t, src); equal(orig, once) {
		t.Error("-fix changed nothing: the test module offers no fix")
	}
}

func snapshot(t *testing.T, dir string) map[string]string {
	files := make(map[string]string)
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".go" {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestFixtool runs lockvet as go fix's tool and checks it applies the fixes the
// golden file shows.
func TestFixtool(t *testing.T) {
	src := testcases.Dir(t)
	dir := filepath.Join(t.TempDir(), "src")
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	if out, code := run(t, dir, "go", "fix", "-fixtool="+bin, "./unsafedel/goredis/"); code != 0 {
		t.Fatalf("go fix: exit %d\n%s", code, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "unsafedel", "goredis", "goredis.go"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(src, "unsafedel", "goredis", "goredis.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("go fix -fixtool result differs from goredis.go.golden:\n%s", got)
	}
}
