package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/analyzers"
	"github.com/lockvet/lockvet/internal/guard"
	"github.com/lockvet/lockvet/internal/lockmodel"
)

// A module of three packages with a finding each; c imports b, on which the
// test's analyzers panic.
var guarded = map[string]string{
	"a/a.go": `package a

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func Run(ctx context.Context, rdb *redis.Client, token string, work func()) {
	if !rdb.SetNX(ctx, "job:a", token, 10*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, "job:a")
	work()
}
`,
	"b/b.go": `package b

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func Run(ctx context.Context, rdb *redis.Client, token string, work func()) {
	if !rdb.SetNX(ctx, "job:b", token, 10*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, "job:b")
	work()
}
`,
	"c/c.go": `package c

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/guarded/b"
)

func Run(ctx context.Context, rdb *redis.Client, token string, work func()) {
	if !rdb.SetNX(ctx, "job:c", token, 10*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, "job:c")
	b.Run(ctx, rdb, token, work)
}
`,
}

func guardedModule(t *testing.T) string {
	dir := t.TempDir()
	examples := filepath.Join("..", "..", "examples")
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(examples, name))
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.Replace(data, []byte("module github.com/lockvet/lockvet/examples"), []byte("module example.com/guarded"), 1)
		guardedWrite(t, filepath.Join(dir, name), data)
	}
	for name, src := range guarded {
		guardedWrite(t, filepath.Join(dir, name), []byte(src))
	}
	return dir
}

func guardedWrite(t *testing.T, path string, data []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o666); err != nil {
		t.Fatal(err)
	}
}

type boomFailed struct{ guard.Failed }

func panicOnB(pass *analysis.Pass) {
	if pass.Pkg.Name() == "b" {
		var m map[string]*int
		_ = *m["nil"] // a nil dereference, like the one issue 13 found
	}
}

// TestPanicIsOnePackagesError runs the command with a panicking analyzer: as
// a check of its own, as a pass with facts that a check requires, and as that
// pass on a package analysed only for its facts. Each way the run prints one
// internal-error line for package b and still prints the findings of a and of
// c, which imports b.
func TestPanicIsOnePackagesError(t *testing.T) {
	type boomResult struct{ ok bool }
	boomCheck := &analysis.Analyzer{
		Name:     "boomcheck",
		Doc:      "panics on package b",
		Requires: []*analysis.Analyzer{lockmodel.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			panicOnB(pass)
			return nil, nil
		},
	}
	boomPass := &analysis.Analyzer{
		Name:       "boompass",
		Doc:        "panics on package b, for the check that requires it",
		ResultType: reflect.TypeFor[*boomResult](),
		FactTypes:  []analysis.Fact{new(boomFailed)},
		Run: func(pass *analysis.Pass) (any, error) {
			panicOnB(pass)
			return &boomResult{ok: true}, nil
		},
	}
	needsBoom := &analysis.Analyzer{
		Name:     "needsboom",
		Doc:      "requires boompass",
		Requires: []*analysis.Analyzer{boomPass},
		Run:      func(pass *analysis.Pass) (any, error) { return nil, nil },
	}
	for _, tc := range []struct {
		name     string
		extra    *analysis.Analyzer
		patterns []string
	}{
		{"check", boomCheck, []string{"./..."}},
		{"pass", needsBoom, []string{"./..."}},
		// b is analysed for its facts only: c, which imports it, says so.
		{"dependency", needsBoom, []string{"./a", "./c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(guardedModule(t))
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			o := &options{format: "text", tests: true, patterns: tc.patterns,
				checks: append(slices.Clone(analyzers.All), tc.extra)}
			var stdout, stderr bytes.Buffer
			code := execute(o, &stdout, &stderr)
			if code != exitFailed {
				t.Errorf("exit %d, want %d", code, exitFailed)
			}
			errLines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if len(errLines) != 1 || !strings.HasPrefix(errLines[0], "lockvet: internal error analysing example.com/guarded/b: panic in ") ||
				!strings.Contains(errLines[0], "nil pointer dereference (lockvet/guard_test.go:") {
				t.Errorf("stderr: want one internal-error line for package b, got:\n%s", stderr.String())
			}
			for _, want := range []string{"a/a.go:14:15: lock released with plain DEL", "c/c.go:16:15: lock released with plain DEL"} {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
				}
			}
		})
	}
}
