// Package testcases locates lockvet's test module, testdata/src, whose go.mod
// requires the real client libraries the checks are tested against.
//
// analysistest loads that module with the module proxy off, so its modules must
// already be in the module cache; Dir downloads them first, once per test
// binary, which makes `go test ./...` work on a fresh clone.
package testcases

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	once        sync.Once
	downloadErr error
	downloadOut []byte
)

// Dir returns the absolute path of testdata/src, its modules downloaded.
func Dir(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "src")
	once.Do(func() {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		downloadOut, downloadErr = cmd.CombinedOutput()
	})
	if downloadErr != nil {
		t.Fatalf("go mod download in %s: %v\n%s", dir, downloadErr, downloadOut)
	}
	return dir
}
