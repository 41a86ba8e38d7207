package setnxlock_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/analyzers/setnxlock"
)

func TestSetnxlock(t *testing.T) {
	dir := filepath.Join(analysistest.TestData(), "..", "..", "..", "testdata", "src")
	analysistest.RunWithSuggestedFixes(t, dir, setnxlock.Analyzer, "./setnxlock/...")
}
