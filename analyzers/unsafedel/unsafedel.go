package unsafedel

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/checkdoc"
	"github.com/lockvet/lockvet/internal/guard"
	"github.com/lockvet/lockvet/internal/lockmodel"
	"github.com/lockvet/lockvet/internal/report"
)

//go:embed doc.go
var doc string

// Analyzer reports Redis lock releases that do not check ownership atomically.
var Analyzer = guard.Protect(&analysis.Analyzer{
	Name:     "unsafedel",
	Doc:      checkdoc.Extract(doc, "unsafedel"),
	URL:      "https://github.com/lockvet/lockvet/tree/main/analyzers/unsafedel",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      report.Run(run),
})

func run(rep *report.Reporter) error {
	model := rep.Pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	seen := make(map[*lockmodel.Op]bool) // an op can end several locks (a retry loop)
	for _, l := range model.Locks {
		for _, r := range l.Releases {
			if !seen[r] {
				seen[r] = true
				checkRelease(rep, l, r)
			}
		}
		for _, r := range l.Refreshes {
			if !seen[r] {
				seen[r] = true
				checkRefresh(rep, r)
			}
		}
	}
	for _, op := range model.OwnerChecked {
		if op.Kind == lockmodel.Release {
			checkRelease(rep, nil, op)
		} else {
			checkRefresh(rep, op)
		}
	}
	return nil
}

func checkRelease(rep *report.Reporter, l *lockmodel.Lock, r *lockmodel.Op) {
	if r.Fact != nil && r.Fact.Reported {
		return
	}
	cmd, where := describe(r)
	switch {
	case r.Checked && r.Value != nil && r.ConstValue():
		rep.At(r.Pos(), r.Pos(), "compare-and-delete"+where+" with a constant token: every holder matches; pass the owner's unique value")
	case r.Checked:
	case r.TwoStep:
		rep.At(r.Pos(), r.Pos(), "lock released"+where+" by GET, compare, then "+cmd+": it can change hands in between; compare and delete in one Lua script")
	default:
		rep.At(r.Pos(), r.Pos(), "lock released"+where+" with plain "+cmd+": it deletes whoever holds it now; compare the owner and delete atomically",
			compareAndDelete(rep.Pass, l, r)...)
	}
}

func checkRefresh(rep *report.Reporter, r *lockmodel.Op) {
	if r.Checked || r.Fact != nil && r.Fact.Reported {
		return
	}
	cmd, where := describe(r)
	if r.TwoStep {
		rep.At(r.Pos(), r.Pos(), "lock refreshed"+where+" by GET, compare, then "+cmd+": it can change hands in between; compare and refresh in one Lua script")
		return
	}
	rep.At(r.Pos(), r.Pos(), "lock refreshed"+where+" with "+cmd+" without an owner check: it can extend another holder's lock; compare the owner in a Lua script")
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
