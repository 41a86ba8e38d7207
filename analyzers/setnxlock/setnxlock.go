package setnxlock

import (
	_ "embed"
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/checkdoc"
	"github.com/lockvet/lockvet/internal/guard"
	"github.com/lockvet/lockvet/internal/lockmodel"
	"github.com/lockvet/lockvet/internal/report"
	"github.com/lockvet/lockvet/internal/ssautil"
)

//go:embed doc.go
var doc string

// Analyzer reports Redis lock acquisitions that cannot work as a lock.
var Analyzer = guard.Protect(&analysis.Analyzer{
	Name:     "setnxlock",
	Doc:      checkdoc.Extract(doc, "setnxlock"),
	URL:      "https://github.com/lockvet/lockvet/tree/main/analyzers/setnxlock",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      report.Run(run),
})

func run(r *report.Reporter) error {
	model := r.Pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	for _, l := range append(slices.Clone(model.Locks), model.Taken...) {
		check(r, l)
	}
	for _, op := range model.Paired {
		if op.Kind == lockmodel.Acquire {
			// The wrapper is the function the operation is in, or the one
			// declaring the literal it is in.
			fn, _ := ssautil.Root(op.Fn).Object().(*types.Func)
			checkPaired(r, op, model.Wrappers[fn])
		}
	}
	return nil
}

// checkPaired judges the acquisition inside a wrapper that another package
// pairs into a lock, for what the wrapper alone decides; its callers' own
// arguments and results are judged at the calls.
func checkPaired(r *report.Reporter, a *lockmodel.Op, f *lockmodel.WrapperFact) {
	switch {
	case a.ConstValue():
		constValue(r, a)
	case a.FixedValue() != "":
		fixedValue(r, a)
	}
	switch {
	case f != nil && f.SplitTTL:
		splitTTL(r, a)
	case a.TTL == lockmodel.TTLNone:
		noTTL(r, a)
	}
	tinyTTL(r, a)
	if !a.Queued && !a.Outcome().Checked() {
		dropped(r, a)
	}
}

func check(r *report.Reporter, l *lockmodel.Lock) {
	a := l.Acquire
	// A wrapper's own problems were reported where it is declared when it pairs
	// with a method of its type; elsewhere they are reported by Place.
	inherited := a.Fact == nil || !a.Fact.Reported
	switch {
	case (inherited || a.Given != nil) && a.ConstValue():
		constValue(r, a)
	case inherited && !a.ConstValue() && a.FixedValue() != "":
		fixedValue(r, a)
	}
	switch {
	case !inherited || a.TTL != lockmodel.TTLNone:
	case l.Expire != nil && a.Queued:
		r.At(l.Expire.Pos(), l.Expire.Pos(),
			"EXPIRE queued after SETNX also extends another holder's lock when SETNX fails; pass the TTL to SETNX")
	case l.Expire != nil:
		r.At(a.Pos(), a.Pos(), "SETNX then EXPIRE is not atomic"+splitAdvice, foldExpire(r.Pass, l)...)
	case a.Fact != nil && a.Fact.SplitTTL:
		splitTTL(r, a)
	default:
		noTTL(r, a)
	}
	tinyTTL(r, a)
	if a.Queued {
		return // a queued command has no result until the pipeline runs
	}
	switch a.Outcome() {
	case lockmodel.Ignored:
		if a.Fact != nil && a.Fact.Drops {
			dropped(r, a)
			return
		}
		r.At(a.Pos(), a.Pos(), "lock result ignored: the work runs whether or not the lock was taken; check that it was acquired")
	case lockmodel.FailsOpen:
		r.At(a.Pos(), a.Pos(), "lock error does not stop the work: when Redis fails, it runs without the lock; return on error too")
	case lockmodel.Logged:
		r.At(a.Pos(), a.Pos(), "lock failure does not stop the work: it runs whether or not the lock was taken; return when it was not acquired")
	case lockmodel.NilOnly:
		r.At(a.Pos(), a.Pos(), "only the not-set reply is checked: any other error passes as acquired; treat every error as not acquired")
	}
}

// The problems a wrapper may decide alone, reported where Place says.

func constFact(f *lockmodel.WrapperFact) bool { return f != nil && f.ConstValue }

func constValue(r *report.Reporter, a *lockmodel.Op) {
	what := "is a constant"
	if a.RepeatsKey() {
		what = "repeats the key"
	}
	if a.Given != nil && a.Given.Parent().Pkg.Pkg == r.Pass.Pkg {
		// The constructor call is where the constant is chosen; every
		// acquisition of that lock object shares it.
		r.At(a.Given.Pos(), a.Given.Pos(), "lock value given to "+a.Given.Call.StaticCallee().Name()+" "+what+": holders cannot be told apart; pass a unique token")
		return
	}
	pos, where, once := a.Place(constFact, r.Generated)
	r.Once(once, pos, "lock value "+what+where+": holders cannot be told apart; store a unique token")
}

func fixedFact(f *lockmodel.WrapperFact) bool { return f != nil && f.Fixed != "" }

func fixedValue(r *report.Reporter, a *lockmodel.Op) {
	const problem = " is set once per lock object: its acquisitions cannot be told apart; store a unique token per acquisition"
	if !fixedFact(a.Fact) {
		// The caller's own field, handed to the wrapper: reported here.
		r.At(a.Pos(), a.Pos(), "lock value "+a.FixedValue()+problem)
		return
	}
	pos, where, once := a.Place(fixedFact, r.Generated)
	r.Once(once, pos, "lock value "+a.FixedValue()+where+problem)
}

const splitAdvice = ": a crash in between leaves a lock that never expires; set the TTL in the same command"

func splitTTL(r *report.Reporter, a *lockmodel.Op) {
	pos, where, once := a.Place(lockmodel.Always, r.Generated)
	r.Once(once, pos, "SETNX then EXPIRE is not atomic"+where+splitAdvice)
}

func noTTL(r *report.Reporter, a *lockmodel.Op) {
	pos, where, once := a.Place(func(f *lockmodel.WrapperFact) bool { return f != nil && f.TTLParam < 0 }, r.Generated)
	r.Once(once, pos, "lock has no TTL"+where+": a crashed holder keeps it forever; set a TTL when acquiring")
}

// tinyTTL reports a constant TTL under a millisecond where it is written.
func tinyTTL(r *report.Reporter, a *lockmodel.Op) {
	if d, ok := a.TinyTTL(); ok && a.Fn != nil && a.Fn.Pkg != nil && a.Fn.Pkg.Pkg == r.Pass.Pkg {
		r.At(a.Pos(), a.Pos(), fmt.Sprintf("lock TTL is %v: a bare number given as a time.Duration counts nanoseconds, so the lock is gone before the work starts; write its unit (%d * time.Second)", d, int64(d)))
	}
}

func dropped(r *report.Reporter, a *lockmodel.Op) {
	pos, where, once := a.Place(lockmodel.Always, r.Generated)
	r.Once(once, pos, "lock result dropped"+where+": the work runs whether or not the lock was taken; return whether it was acquired")
}
