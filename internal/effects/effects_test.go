package effects_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/internal/effects"
	"github.com/lockvet/lockvet/internal/testcases"
)

// TestSummaries checks the summaries the pass exports as facts: chains,
// mutual recursion, generics, and claims within and across packages.
func TestSummaries(t *testing.T) {
	analysistest.Run(t, testcases.Dir(t), effects.Analyzer, "./effects/...")
}
