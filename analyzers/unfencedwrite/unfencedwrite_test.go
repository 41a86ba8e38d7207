package unfencedwrite_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/analyzers/unfencedwrite"
	"github.com/lockvet/lockvet/internal/lockmodel"
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

// TestHelperFlags checks in-house lock helpers named with the lock model's
// -acquire and -release flags.
func TestHelperFlags(t *testing.T) {
	flags := &lockmodel.Analyzer.Flags
	for name, value := range map[string]string{
		"acquire": "testcases/unfencedwrite/_helpers/lease.Acquire,testcases/unfencedwrite/_helpers/lease.Lock",
		"release": "testcases/unfencedwrite/_helpers/lease.(*Lease).Release,testcases/unfencedwrite/_helpers/lease.Unlock",
	} {
		if err := flags.Set(name, value); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { flags.Set(name, "") })
	}
	analysistest.Run(t, testcases.Dir(t), unfencedwrite.Analyzer, "./unfencedwrite/_helpers/orders")
}
