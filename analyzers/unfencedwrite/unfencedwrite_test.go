package unfencedwrite_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/analyzers/unfencedwrite"
	"github.com/lockvet/lockvet/internal/testcases"
)

func TestUnfencedwrite(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testcases.Dir(t), unfencedwrite.Analyzer, "./unfencedwrite/...", "./lookalike")
}

// TestFenceFlag checks a package whose fencing-token column is named by
// -fence. Its directory starts with an underscore, which keeps it out of the
// ./unfencedwrite/... that TestUnfencedwrite runs with the default.
func TestFenceFlag(t *testing.T) {
	flag := unfencedwrite.Analyzer.Flags.Lookup("fence")
	old := flag.Value.String()
	if err := unfencedwrite.Analyzer.Flags.Set("fence", "epoch"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unfencedwrite.Analyzer.Flags.Set("fence", old) })
	analysistest.RunWithSuggestedFixes(t, testcases.Dir(t), unfencedwrite.Analyzer, "./unfencedwrite/_fenceflag")
}
