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
	for _, op := range model.Paired {
		switch op.Kind {
		case lockmodel.Release:
			checkRelease(rep, nil, op)
		case lockmodel.Refresh:
			checkRefresh(rep, op)
		}
	}
	for _, op := range model.Released {
		checkRelease(rep, nil, op)
	}
	for _, op := range model.Stored {
		verb := "released"
		if op.Kind == lockmodel.Refresh {
			verb = "refreshed"
		}
		rep.At(op.Pos(), op.Pos(), "lock "+verb+" is whichever one "+op.StoredIn+" holds under the key: a holder whose lease ran out acts on the next holder's; return the lock to the caller and act on that")
	}
	for _, op := range model.Renewed {
		checkRefresh(rep, op)
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
	reported := r.Fact != nil && r.Fact.Reported
	cmd := command(r)
	switch {
	case r.Checked && r.Value != nil && r.ConstValue() && (!reported || r.Given != nil):
		pos, where, once := r.Place(func(f *lockmodel.WrapperFact) bool { return f != nil && f.ConstValue }, rep.Generated)
		token := "a constant token"
		if r.RepeatsKey() {
			token = "a token that repeats the key"
		}
		rep.Once(once, pos, "compare-and-delete"+where+" with "+token+": every holder matches; pass the owner's unique value")
	case r.Checked && !r.ConstValue() && r.FixedValue() != "" && !reported:
		pos, where, once := r.Place(func(f *lockmodel.WrapperFact) bool { return f != nil && f.Fixed != "" }, rep.Generated)
		rep.Once(once, pos, "compare-and-delete"+where+" with "+r.FixedValue()+", set once per lock object: a holder whose lease ran out matches the next acquisition through it; pass the acquisition's unique value")
	case reported && early(l, r):
		releasedEarly(rep, r)
	case reported && onFailure(l, r):
		releasedOnFailure(rep, r)
	case reported, r.Checked:
	case r.TwoStep:
		// Two steps through a wrapper's plain delete are decided here,
		// where the comparison is.
		pos, where, once := r.Place(twoStepFact, rep.Generated)
		rep.Once(once, pos, "lock released"+where+" by GET, compare, then "+cmd+": it can change hands in between; compare and delete in one Lua script")
	default:
		pos, where, once := r.Place(lockmodel.Always, rep.Generated)
		var fixes []analysis.SuggestedFix
		if pos == r.Pos() {
			fixes = compareAndDelete(rep.Pass, l, r)
		}
		rep.Once(once, pos, "lock released"+where+" with plain "+cmd+": it deletes whoever holds it now; compare the owner and delete atomically", fixes...)
		switch {
		case pos == r.Pos():
		case early(l, r):
			releasedEarly(rep, r)
		case onFailure(l, r):
			releasedOnFailure(rep, r)
		}
	}
}

// early reports whether an unchecked release is deferred before the lock's
// acquisition is checked.
func early(l *lockmodel.Lock, r *lockmodel.Op) bool {
	return l != nil && !r.Checked && l.ReleasedBeforeCheck(r)
}

// onFailure reports whether an unchecked release runs only where the lock
// was not acquired.
func onFailure(l *lockmodel.Lock, r *lockmodel.Op) bool {
	return l != nil && !r.Checked && l.ReleasedOnFailure(r)
}

// releasedOnFailure reports, at the release, what the call adds to its
// wrapper's plain delete reported elsewhere: it runs only for losers, whose
// delete always hits another holder's lock.
func releasedOnFailure(rep *report.Reporter, r *lockmodel.Op) {
	rep.At(r.Pos(), r.Pos(), "release ("+releaseName(r)+") where the lock was not acquired: it deletes the holder's lock; leave without releasing")
}

// releasedEarly reports, at the release, what the call adds to its
// wrapper's plain delete reported elsewhere: it runs for losers too.
func releasedEarly(rep *report.Reporter, r *lockmodel.Op) {
	rep.At(r.Pos(), r.Pos(), "release ("+releaseName(r)+") deferred before the lock is checked: a caller that did not get it deletes the holder's; defer it after the check")
}

// releaseName names the call a caller's finding is about: the wrapper
// called, or the command.
func releaseName(r *lockmodel.Op) string {
	if r.Via != nil {
		return r.Via.Name()
	}
	return command(r)
}

// twoStepFact: two steps through a wrapper's plain delete are decided where
// the comparison is.
func twoStepFact(f *lockmodel.WrapperFact) bool { return f == nil || f.TwoStep }

func checkRefresh(rep *report.Reporter, r *lockmodel.Op) {
	if r.Checked || r.Fact != nil && r.Fact.Reported {
		return
	}
	cmd := command(r)
	if r.TwoStep {
		// As for a release: decided where the comparison is.
		pos, where, once := r.Place(twoStepFact, rep.Generated)
		rep.Once(once, pos, "lock refreshed"+where+" by GET, compare, then "+cmd+": it can change hands in between; compare and refresh in one Lua script")
		return
	}
	pos, where, once := r.Place(lockmodel.Always, rep.Generated)
	rep.Once(once, pos, "lock refreshed"+where+" with "+cmd+" without an owner check: it can extend another holder's lock; compare the owner in a Lua script")
}

// command names the command a release or refresh sends, through its
// wrapper's fact for a wrapper call.
func command(r *lockmodel.Op) string {
	switch {
	case r.Fact != nil:
		return r.Fact.Command
	case r.Script:
		return "DEL"
	}
	return r.Command
}
