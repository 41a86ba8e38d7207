package unsafedel

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/checkdoc"
	"github.com/lockvet/lockvet/internal/lockmodel"
	"github.com/lockvet/lockvet/internal/report"
)

//go:embed doc.go
var doc string

// Analyzer reports Redis lock releases that do not check ownership atomically.
var Analyzer = &analysis.Analyzer{
	Name:     "unsafedel",
	Doc:      checkdoc.Extract(doc, "unsafedel"),
	URL:      "https://github.com/lockvet/lockvet/tree/main/analyzers/unsafedel",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	model := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	seen := make(map[*lockmodel.Op]bool) // an op can end several locks (a retry loop)
	for _, l := range model.Locks {
		for _, r := range l.Releases {
			if !seen[r] {
				seen[r] = true
				checkRelease(pass, l, r)
			}
		}
		for _, r := range l.Refreshes {
			if !seen[r] {
				seen[r] = true
				checkRefresh(pass, r)
			}
		}
	}
	for _, op := range model.OwnerChecked {
		if op.Kind == lockmodel.Release {
			checkRelease(pass, nil, op)
		} else {
			checkRefresh(pass, op)
		}
	}
	return nil, nil
}

func checkRelease(pass *analysis.Pass, l *lockmodel.Lock, r *lockmodel.Op) {
	if r.Fact != nil && r.Fact.Reported {
		return
	}
	cmd, where := describe(r)
	switch {
	case r.Checked && lockmodel.IsConst(r.Value):
		report.At(pass, r.Pos(), r.Pos(), "compare-and-delete"+where+" with a constant token: every holder matches; pass the owner's unique value")
	case r.Checked:
	case r.TwoStep:
		report.At(pass, r.Pos(), r.Pos(), "lock released"+where+" by GET, compare, then "+cmd+": it can change hands in between; compare and delete in one Lua script")
	default:
		report.At(pass, r.Pos(), r.Pos(), "lock released"+where+" with plain "+cmd+": it deletes whoever holds it now; compare the owner and delete atomically",
			compareAndDelete(pass, l, r)...)
	}
}

func checkRefresh(pass *analysis.Pass, r *lockmodel.Op) {
	if r.Checked || r.Fact != nil && r.Fact.Reported {
		return
	}
	cmd, where := describe(r)
	if r.TwoStep {
		report.At(pass, r.Pos(), r.Pos(), "lock refreshed"+where+" by GET, compare, then "+cmd+": it can change hands in between; compare and refresh in one Lua script")
		return
	}
	report.At(pass, r.Pos(), r.Pos(), "lock refreshed"+where+" with "+cmd+" without an owner check: it can extend another holder's lock; compare the owner in a Lua script")
}

// describe names the command, and the wrapper it is sent from.
func describe(r *lockmodel.Op) (cmd, where string) {
	if r.Fact != nil {
		return r.Fact.Command, " in " + r.Via.Name()
	}
	if r.Script {
		return "DEL", ""
	}
	return r.Command, ""
}
