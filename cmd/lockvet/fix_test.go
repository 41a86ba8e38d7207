package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lockvet/lockvet/internal/testcases"
)

// TestFixesCompile applies every suggested fix lockvet offers on its whole test
// module, then checks that the result still compiles, that what was fixed is
// no longer reported, and that fixing again changes nothing.
func TestFixesCompile(t *testing.T) {
	src := testcases.Dir(t)
	dir := filepath.Join(t.TempDir(), "src")
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	before := sarifCounts(t, dir)
	if out, code := run(t, dir, bin, "-fix", "./..."); code != 0 && code != 3 {
		t.Fatalf("lockvet -fix: exit %d\n%s", code, out)
	}
	once := snapshot(t, dir)
	if out, code := run(t, dir, "go", "build", "./..."); code != 0 {
		t.Fatalf("fixed code does not compile:\n%s", out)
	}
	after := sarifCounts(t, dir)
	fixable := 0
	for _, n := range before {
		fixable += n.fixable
	}
	if fixable == 0 {
		t.Fatal("no finding in the test module comes with a fix")
	}
	for k, n := range before {
		if n.fixable > 0 && after[k].all > n.all-n.fixable {
			t.Errorf("%s: %d %s findings, %d with a fix; after -fix still %d", k.file, n.all, k.rule, n.fixable, after[k].all)
		}
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

type sarifKey struct{ file, rule string }

type sarifCount struct{ all, fixable int }

// sarifCounts counts the findings in dir by file and check, and those of
// them that come with a fix.
func sarifCounts(t *testing.T, dir string) map[sarifKey]sarifCount {
	out, code := runOut(t, dir, bin, "-f", "sarif", "./...")
	if code != 0 && code != 3 {
		t.Fatalf("lockvet -f sarif: exit %d\n%s", code, out)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
					}
				}
				Fixes []json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("sarif: %v", err)
	}
	counts := make(map[sarifKey]sarifCount)
	for _, r := range log.Runs[0].Results {
		k := sarifKey{r.Locations[0].PhysicalLocation.ArtifactLocation.URI, r.RuleID}
		c := counts[k]
		c.all++
		if len(r.Fixes) > 0 {
			c.fixable++
		}
		counts[k] = c
	}
	return counts
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
