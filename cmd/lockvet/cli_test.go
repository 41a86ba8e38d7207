package main_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestJSON(t *testing.T) {
	dir := examplesDir(t)
	out, code := run(t, dir, bin, "-f", "json", "./...")
	if code != 3 {
		t.Fatalf("exit %d, want 3\n%s", code, out)
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var f struct {
			Code     string
			Severity string
			Location struct {
				File         string
				Line, Column int
			}
			Message string
		}
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if !filepath.IsAbs(f.Location.File) || f.Location.Line == 0 || f.Message == "" || f.Severity != "warning" {
			t.Errorf("incomplete finding %+v", f)
		}
		seen[f.Code] = true
	}
	for _, check := range []string{"setnxlock", "unsafedel", "unfencedwrite", "needlesslock"} {
		if !seen[check] {
			t.Errorf("no %s finding in:\n%s", check, out)
		}
	}
}

// fixable is a module with one finding that has a suggested fix.
func fixable(t *testing.T) string {
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(examplesDir(t), name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, name), string(data))
	}
	write(t, filepath.Join(dir, "lock.go"), `package lock

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func Run(ctx context.Context, rdb *redis.Client, token string, work func()) {
	if !rdb.SetNX(ctx, "job", token, 0).Val() {
		return
	}
	rdb.Expire(ctx, "job", 10*time.Second)
	defer rdb.Del(ctx, "job")
	work()
}
`)
	return dir
}

func TestSARIF(t *testing.T) {
	dir := fixable(t)
	out, code := run(t, dir, bin, "-f", "sarif", "./...")
	if code != 3 {
		t.Fatalf("exit %d, want 3\n%s", code, out)
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string
						ShortDescription struct{ Text string }
						FullDescription  struct{ Text string }
						HelpURI          string
					}
				}
			}
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
				Fixes []struct {
					ArtifactChanges []struct {
						Replacements []struct {
							InsertedContent struct{ Text string }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != 4 {
		t.Errorf("%d rules, want 4", len(run.Tool.Driver.Rules))
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.ShortDescription.Text == "" || r.FullDescription.Text == "" || !strings.HasSuffix(r.HelpURI, "/analyzers/"+r.ID) {
			t.Errorf("rule %s incomplete: %+v", r.ID, r)
		}
	}
	if len(run.Results) != 2 || run.Results[0].RuleID != "setnxlock" || run.Results[1].RuleID != "unsafedel" {
		t.Errorf("results %+v, want the setnxlock and unsafedel findings", run.Results)
	}
	for _, r := range run.Results {
		if len(r.Fixes) != 1 || len(r.Fixes[0].ArtifactChanges) != 1 || len(r.Fixes[0].ArtifactChanges[0].Replacements) == 0 {
			t.Errorf("%s: want one fix with replacements, got %+v", r.RuleID, r.Fixes)
		}
	}
	fixes := 0
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation
		if strings.HasPrefix(loc.ArtifactLocation.URI, "/") || loc.Region.StartLine == 0 {
			t.Errorf("result %s at %+v: want a relative URI and a line", r.RuleID, loc)
		}
		fixes += len(r.Fixes)
	}
	if fixes == 0 {
		t.Errorf("no fixes carried")
	}
}

func TestChecksFlag(t *testing.T) {
	dir := examplesDir(t)
	out, code := run(t, dir, bin, "-checks", "all,-needlesslock,-unfencedwrite", "./...")
	if code != 3 || strings.Contains(out, "(needlesslock)") || strings.Contains(out, "(unfencedwrite)") || !strings.Contains(out, "(unsafedel)") {
		t.Errorf("exit %d; want only setnxlock and unsafedel findings:\n%s", code, out)
	}
	out, code = run(t, dir, bin, "-checks", "setnxlock", "./...")
	if code != 3 || strings.Count(out, "\n") != 1 || !strings.Contains(out, "(setnxlock)") {
		t.Errorf("exit %d; want the one setnxlock finding:\n%s", code, out)
	}
}

func TestExplain(t *testing.T) {
	for _, args := range [][]string{{"-explain", "unfencedwrite"}, {"help", "unfencedwrite"}} {
		out, code := run(t, ".", bin, args...)
		if code != 0 || !strings.HasPrefix(out, "unfencedwrite: ") || !strings.Contains(out, "/analyzers/unfencedwrite") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
}

// Bad input gets one line naming the problem and its own exit status.
func TestBadInput(t *testing.T) {
	notModule := t.TempDir()
	for _, tc := range []struct {
		name string
		dir  string
		args []string
		code int
		want string
	}{
		{"unknown flag", ".", []string{"-nosuch", "./..."}, 2, "flag provided but not defined: -nosuch"},
		{"unknown check", ".", []string{"-checks", "setnxlock,nosuch", "./..."}, 2, `unknown check "nosuch"`},
		{"unknown explain", ".", []string{"-explain", "nosuch"}, 2, `unknown check "nosuch"`},
		{"bad format", ".", []string{"-f", "xml", "./..."}, 2, `unknown output format "xml"`},
		{"bad helper name", ".", []string{"-lockmodel.acquire", "Acquire", "./..."}, 2, `bad function name "Acquire"`},
		{"bad fence column", ".", []string{"-unfencedwrite.fence", "fencing token", "./..."}, 2, "-unfencedwrite.fence"},
		{"no packages", ".", nil, 2, "no packages to analyse"},
		{"not a module", notModule, []string{"./..."}, 1, "lockvet: pattern ./...: directory prefix . does not contain main module"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code := run(t, tc.dir, bin, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.want) || strings.Count(out, "\n") != 1 || strings.Contains(out, "goroutine ") {
				t.Errorf("exit %d, output:\n%s\nwant exit %d and one line containing %q", code, out, tc.code, tc.want)
			}
		})
	}
}

// A package that does not type-check is reported; the others are still analysed.
func TestBrokenPackage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "examples")
	if out, err := exec.Command("cp", "-r", examplesDir(t), dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	if err := os.Mkdir(filepath.Join(dir, "broken"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "broken", "broken.go"), "package broken\n\nfunc F() int { return \"x\" }\n")
	out, code := run(t, dir, bin, "./...")
	if code != 1 || !strings.Contains(out, "broken.go:3:23") || !strings.Contains(out, "lock value is a constant") {
		t.Errorf("exit %d; want 1 with the type error and the examples' findings:\n%s", code, out)
	}
}
