package setnxlock_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/analyzers/setnxlock"
	"github.com/lockvet/lockvet/internal/testcases"
)

func TestSetnxlock(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testcases.Dir(t), setnxlock.Analyzer, "./setnxlock/...", "./lookalike")
}
