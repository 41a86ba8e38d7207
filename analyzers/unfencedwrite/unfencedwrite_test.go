package unfencedwrite_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/analyzers/unfencedwrite"
	"github.com/lockvet/lockvet/internal/testcases"
)

func TestUnfencedwrite(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testcases.Dir(t), unfencedwrite.Analyzer, "./unfencedwrite/...")
}
