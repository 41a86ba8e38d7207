package analyzers_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoExecNoNetwork keeps the checks to reading: nothing they link can run
// a program, load a plugin, interpret the analysed code or open a connection.
// The command runs `go list` to load packages; the checks themselves never do.
func TestNoExecNoNetwork(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/lockvet/lockvet/analyzers").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	forbidden := map[string]bool{
		"os/exec":                          true,
		"plugin":                           true,
		"net":                              true,
		"net/http":                         true,
		"net/rpc":                          true,
		"golang.org/x/tools/go/ssa/interp": true,
	}
	for _, pkg := range strings.Fields(string(out)) {
		if forbidden[pkg] {
			t.Errorf("the checks depend on %s", pkg)
		}
	}
}
