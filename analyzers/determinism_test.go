package analyzers_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzers"
	"github.com/lockvet/lockvet/internal/testcases"
)

// determinismRuns is how many times the packages are analysed: enough for
// map order and scheduling to have shown any influence they have.
const determinismRuns = 12

// TestDeterministic analyses the same packages many times, loaded once, and
// requires the same diagnostics, in the same order, and the same facts every
// time. The packages are those whose verdicts hang on summaries computed to a
// fixpoint: call chains, recursion, claims through calls, regions.
func TestDeterministic(t *testing.T) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: testcases.Dir(t)}
	pkgs, err := packages.Load(cfg, "./effects/...", "./needlesslock/...", "./unfencedwrite/claimcalls/...",
		"./unfencedwrite/claims", "./unfencedwrite/fences", "./unfencedwrite/service", "./unfencedwrite/repo", "./lookalike")
	if err != nil {
		t.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("%d errors loading the test packages", n)
	}
	var first string
	for run := range determinismRuns {
		graph, err := checker.Analyze(analyzers.All, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := render(graph)
		if run == 0 {
			first = got
			if !strings.Contains(got, "unfencedwrite") || !strings.Contains(got, "needlesslock") {
				t.Fatalf("no findings to compare:\n%s", got)
			}
			continue
		}
		if got != first {
			t.Fatalf("run %d differs from run 0:\n%s", run, lineDiff(first, got))
		}
	}
}

// render writes the diagnostics of the root actions in the order they were
// reported, and every action's facts, sorted.
func render(graph *checker.Graph) string {
	var b strings.Builder
	var facts []string
	for act := range graph.All() {
		if !act.IsRoot {
			for _, f := range act.AllObjectFacts() {
				facts = append(facts, fmt.Sprintf("%s %s: %v", act.Analyzer.Name, f.Object, f.Fact))
			}
			continue
		}
		for _, d := range act.Diagnostics {
			fmt.Fprintf(&b, "%s: %s: %s\n", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message)
			for _, fix := range d.SuggestedFixes {
				fmt.Fprintf(&b, "\tfix: %s %s\n", fix.Message, edits(act, fix))
			}
		}
	}
	slices.Sort(facts)
	facts = slices.Compact(facts)
	b.WriteString(strings.Join(facts, "\n"))
	return b.String()
}

func edits(act *checker.Action, fix analysis.SuggestedFix) string {
	var out []string
	for _, e := range fix.TextEdits {
		out = append(out, fmt.Sprintf("%v-%v %q", act.Package.Fset.Position(e.Pos), act.Package.Fset.Position(e.End), e.NewText))
	}
	return strings.Join(out, "; ")
}

// lineDiff shows the first lines where two renderings differ.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y)
		}
	}
	return ""
}
