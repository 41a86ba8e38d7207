package needlesslock_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/analyzers/needlesslock"
	"github.com/lockvet/lockvet/internal/testcases"
)

func TestNeedlesslock(t *testing.T) {
	analysistest.Run(t, testcases.Dir(t), needlesslock.Analyzer, "./needlesslock/...", "./lookalike")
}
