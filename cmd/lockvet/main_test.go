package main_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var bin string

// TestMain builds the command once for the tests of this package.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lockvet")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "lockvet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func lockvet(*testing.T) string { return bin }

func examplesDir(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	download := exec.Command("go", "mod", "download")
	download.Dir = dir
	if out, err := download.CombinedOutput(); err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	return dir
}

func run(t *testing.T, dir, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out.String(), 0
}

// runOut is run, with stdout alone in the output.
func runOut(t *testing.T, dir, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, errs.String())
	}
	return out.String(), 0
}

// The findings on the bundled examples, whichever way lockvet is run.
var wantFindings = []string{
	"naive/naive.go:21:22: lock value is a constant",
	"naive/naive.go:28:15: lock released with plain DEL",
	"naive/naive.go:30:29: unfenced write under a TTL lock",
	"naive/naive.go:33:25: unfenced write under a TTL lock",
	"ownerchecked/ownerchecked.go:39:29: unfenced write under a TTL lock",
	"ownerchecked/ownerchecked.go:42:25: unfenced write under a TTL lock",
	"naive/naive.go:21:22: lock only guards database work",
	"ownerchecked/ownerchecked.go:30:22: lock only guards database work",
	"separateincr/separateincr.go:60:28: write to orders compares fencing_token with an INCR taken after the lock",
}

func TestStandalone(t *testing.T) {
	bin, dir := lockvet(t), examplesDir(t)
	out, code := run(t, dir, bin, "./...")
	if code != 3 {
		t.Errorf("exit code %d, want 3 (findings)\n%s", code, out)
	}
	checkFindings(t, out)
}

func TestVettool(t *testing.T) {
	bin, dir := lockvet(t), examplesDir(t)
	out, code := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if code == 0 {
		t.Errorf("go vet exit code 0, want non-zero\n%s", out)
	}
	checkFindings(t, out)
}

func TestCleanPackage(t *testing.T) {
	bin := lockvet(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module clean\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "clean.go"), "package clean\n\nfunc F() int { return 1 }\n")
	if out, code := run(t, dir, bin, "./..."); code != 0 || out != "" {
		t.Errorf("exit %d, output %q; want 0 and nothing", code, out)
	}
}

func checkFindings(t *testing.T, out string) {
	t.Helper()
	for _, want := range wantFindings {
		if !strings.Contains(out, want) {
			t.Errorf("missing finding %q in:\n%s", want, out)
		}
	}
	if n, want := strings.Count(out, ".go:"), len(wantFindings); n != want {
		t.Errorf("%d findings, want %d:\n%s", n, want, out)
	}
}

func write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
