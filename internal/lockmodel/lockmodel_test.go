package lockmodel_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/internal/lockmodel"
	"github.com/lockvet/lockvet/internal/testcases"
)

// TestFacts checks the wrapper facts that carry locks across packages.
func TestFacts(t *testing.T) {
	analysistest.Run(t, testcases.Dir(t), lockmodel.Analyzer, "./lockmodel/...")
}
