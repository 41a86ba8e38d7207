package unsafedel_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/analyzers/unsafedel"
	"github.com/lockvet/lockvet/internal/testcases"
)

func TestUnsafedel(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testcases.Dir(t), unsafedel.Analyzer, "./unsafedel/...", "./lookalike")
}
