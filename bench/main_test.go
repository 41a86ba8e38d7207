//go:build linux

package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestExecMeasured(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "run")
	// A child that starts a grandchild and waits for it: both are measured.
	r := execMeasured(context.Background(), []string{"sh", "-c", "sh -c 'echo out; echo err >&2; sleep 0.3'; exit 3"}, dir, os.Environ(), log, time.Minute, 50*time.Millisecond)
	if r.failure != "" || r.exit != 3 {
		t.Fatalf("run = %+v", r)
	}
	if r.wall < 300*time.Millisecond || r.maxRSS <= 0 || r.treeRSS <= 0 {
		t.Errorf("wall %v, maxRSS %d, treeRSS %d", r.wall, r.maxRSS, r.treeRSS)
	}
	if out, _ := os.ReadFile(log + ".out"); string(out) != "out\n" {
		t.Errorf("stdout = %q", out)
	}
	if errOut, _ := os.ReadFile(log + ".err"); string(errOut) != "err\n" {
		t.Errorf("stderr = %q", errOut)
	}

	r = execMeasured(context.Background(), []string{"sleep", "10"}, dir, os.Environ(), log, 200*time.Millisecond, 0)
	if r.failure == "" || r.wall > 5*time.Second {
		t.Errorf("timed-out run = %+v", r)
	}
}

func TestBadOutput(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "x")
	for _, tc := range []struct {
		tool, out, err, want string
	}{
		{"lockvet", "a.go:1:2: lock value is a constant\n", "", ""},
		{"lockvet", "", "panic: boom\n", "panic: boom"},
		{"govet", "", "# p\nvet: p.go:1:1: undefined: x\n", "vet: p.go:1:1: undefined: x"},
		{"govet", "", "# p\np.go:3:2: fmt.Printf format %d has arg s of wrong type string\n", ""},
		{"vettool", "", "lockvet: cannot load\n", "lockvet: cannot load"},
		{"staticcheck", "p.go:1:1: undefined: x (compile)\n", "", "p.go:1:1: undefined: x (compile)"},
		{"staticcheck", "p.go:1:1: should omit nil check (S1031)\n", "", ""},
	} {
		os.WriteFile(base+".out", []byte(tc.out), 0o644)
		os.WriteFile(base+".err", []byte(tc.err), 0o644)
		if got := badOutput(tc.tool, base); got != tc.want {
			t.Errorf("badOutput(%s, %q, %q) = %q, want %q", tc.tool, tc.out, tc.err, got, tc.want)
		}
	}
}

func TestMedian(t *testing.T) {
	runs := func(ds ...time.Duration) []run {
		var out []run
		for _, d := range ds {
			out = append(out, run{wall: d})
		}
		return out
	}
	wall := func(r run) int64 { return int64(r.wall) }
	if got := median(runs(3, 1, 2), wall); got != 2 {
		t.Errorf("median of 3 = %v", got)
	}
	if got := median(runs(4, 1, 2, 3), wall); got != 2 {
		t.Errorf("median of 4 = %v", got)
	}
	if got := median(nil, wall); got != 0 {
		t.Errorf("median of none = %v", got)
	}
}
