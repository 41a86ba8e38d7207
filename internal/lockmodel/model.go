// Package lockmodel is the pass that knows Redis locks: it finds acquisitions,
// releases, refreshes and reads of keys in any supported client, pairs an
// acquisition with the releases of the same key into a Lock, and exports facts for
// wrapper functions so locks built from helpers in other packages are seen too.
//
// Checks never walk SSA for locks themselves; they judge the Locks found here.
// A SET NX with no release of its key is not a lock (a dedup marker, a run-once
// guard, a throttle) and appears in no Lock, unless a goroutine started
// under it renews the key: precision before recall.
package lockmodel

import (
	"go/types"
	"reflect"
	"slices"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/guard"
	"github.com/lockvet/lockvet/internal/lazyssa"
	"github.com/lockvet/lockvet/internal/link"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// Analyzer finds the locks of a package.
var Analyzer = guard.Protect(&analysis.Analyzer{
	Name:       "lockmodel",
	Doc:        "find Redis lock acquisitions and releases, and the wrappers around them",
	Run:        run,
	Requires:   []*analysis.Analyzer{lazyssa.Analyzer},
	ResultType: reflect.TypeFor[*Model](),
	FactTypes:  []analysis.Fact{new(WrapperFact), new(CommandFact), new(CallbackFact), new(CtorFact), new(PackageFact), new(failed)},
})

// Model is what lockmodel found in one package.
type Model struct {
	Locks []*Lock
	// OwnerChecked are releases and refreshes that GET the key and compare it
	// with an owner value in Go first, outside any Lock: the comparison shows
	// they release a lock even where its acquisition is out of sight.
	OwnerChecked []*Op
	// Paired are the operations inside this package's wrappers that code in
	// other packages pairs into locks, when the link step says so, and in
	// its lock helpers paired by name, when the command links: the checks
	// judge there what each wrapper alone decides.
	Paired []*Op
	// Renewed are refreshes of a fixed key another function of the package
	// acquires, outside any Lock: a leader's lease renewed on a ticker.
	Renewed []*Op
	// Released are releases of a key another function of the package
	// acquires, outside any Lock: a job lock deleted by Cancel, a device's
	// lock deleted by the function that takes its gateway's (sharedKey).
	Released []*Op
	// Taken are the acquisitions those releases pair with, outside any
	// Lock, as locks whose region is out of sight: only their commands can
	// be judged.
	Taken []*Lock
	// Stored are releases and refreshes of a lock object looked up by key
	// in a map the package keeps for the process, where it stores each
	// object it locks: they act on whichever holder stored last.
	Stored []*Op
	// Callbacks are the function literals the package passes to functions
	// that run them under a lock: WithLock(ctx, key, func() error { … }).
	Callbacks []*Callback
	SSA       *buildssa.SSA // nil when the package uses no Redis client
	// Wrappers and RunsUnder are the facts the package's own functions
	// export, for the link step.
	Wrappers  map[*types.Func]*WrapperFact
	RunsUnder map[*types.Func]*CallbackFact
}

// Lock is one acquisition with the releases, refreshes and reads of its key.
type Lock struct {
	Acquire   *Op
	Releases  []*Op
	Refreshes []*Op
	// Expire is an EXPIRE sent after a SETNX without TTL: the second half of a
	// non-atomic acquisition, not a refresh.
	Expire *Op
	// Tokens are the operations whose results are this lock's fencing tokens.
	Tokens []*Op

	regionOnce sync.Once
	region     *Region
}

func run(pass *analysis.Pass) (any, error) {
	if !relevant(pass) {
		return &Model{}, nil
	}
	prog := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Lazy).SSA()
	inits := ssautil.GlobalInits(prog.Pkg)
	local := make(map[*types.Func]*WrapperFact)
	r := &recognizer{
		consts:   constFields(pass.Pkg, prog.SrcFuncs, inits),
		fixed:    newFixedFields(pass.Pkg, prog.SrcFuncs),
		inits:    inits,
		scripts:  newScriptSource(pass, inits),
		forwards: make(map[*ssa.Function]*CommandFact),
		fact: func(obj *types.Func) *WrapperFact {
			if f := factOf(pass, local, obj); f != nil {
				return f
			}
			f := linked[WrapperFact](obj, func(f link.Facts) []byte { return f.Wrapper })
			if f != nil {
				facts, _ := link.Lookup(obj)
				f.Impl, f.ImplFunc, f.ImplPkg = facts.From, facts.Func, facts.Pkg
			}
			return f
		},
	}
	ctors := ctorFacts(prog.SrcFuncs)
	r.ctor = func(obj *types.Func) *CtorFact {
		if obj.Pkg() == pass.Pkg {
			return ctors[obj]
		}
		f := new(CtorFact)
		if pass.ImportObjectFact(obj, f) {
			return f
		}
		return nil
	}
	r.command = func(obj *types.Func) *CommandFact {
		if obj.Pkg() == pass.Pkg {
			if fn := prog.Pkg.Prog.FuncValue(obj); fn != nil {
				return r.forwards[fn]
			}
			return nil
		}
		f := new(CommandFact)
		if pass.ImportObjectFact(obj, f) {
			return f
		}
		return nil
	}

	// Wrappers of wrappers: each round may turn calls into operations.
	var byRoot map[*ssa.Function][]*Op
	for range 4 {
		forwards := len(r.forwards)
		byRoot = collect(r, prog.SrcFuncs)
		if !deriveFacts(byRoot, local) && len(r.forwards) == forwards {
			break
		}
	}

	m := &Model{SSA: prog}
	for _, ops := range byRoot {
		markTwoStep(ops)
	}
	linkInner(byRoot, local)
	for _, root := range sortedRoots(byRoot) {
		for _, l := range pairInFunc(byRoot[root]) {
			if !l.marker() {
				m.Locks = append(m.Locks, l)
			}
		}
	}
	runsUnder := callbackFacts(m.Locks)
	m.Callbacks = callbacks(pass, prog.SrcFuncs, runsUnder)
	m.Locks = append(m.Locks, pairByType(byRoot, local)...)
	helpers := judgedInHelpers(byRoot, local)
	m.OwnerChecked = ownerChecked(byRoot, m.Locks, local)
	m.Paired = pairedElsewhere(byRoot, local, helpers)
	m.Renewed = renewedElsewhere(byRoot, m.Locks)
	m.Released = releasedElsewhere(byRoot, m.Locks, append(slices.Clone(m.OwnerChecked), m.Paired...))
	m.Taken = takenElsewhere(byRoot, m.Locks, m.Released)
	m.Stored = storedReleases(byRoot)
	m.Wrappers, m.RunsUnder = local, runsUnder

	for obj, f := range local {
		pass.ExportObjectFact(obj, f)
	}
	for fn, f := range r.forwards {
		pass.ExportObjectFact(fn.Object(), f)
	}
	for obj, f := range ctors {
		pass.ExportObjectFact(obj, f)
	}
	for obj, f := range runsUnder {
		pass.ExportObjectFact(obj, f)
	}
	if len(local) > 0 || len(r.forwards) > 0 || len(runsUnder) > 0 || len(ctors) > 0 {
		pass.ExportPackageFact(&PackageFact{})
	}
	return m, nil
}

// ownerChecked returns the two-step releases and refreshes that no Lock holds
// (a release only when it ends its function's work, as a release does: a
// one-time code checked and deleted before the login goes on is no lock, nor
// is one whose key says it holds a code), and marks the wrappers they are in
// as reported where they are declared.
func ownerChecked(byRoot map[*ssa.Function][]*Op, locks []*Lock, local map[*types.Func]*WrapperFact) []*Op {
	inLock := make(map[*Op]bool)
	for _, l := range locks {
		for _, op := range append(l.Releases, l.Refreshes...) {
			inLock[op] = true
		}
	}
	var out []*Op
	for _, root := range sortedRoots(byRoot) {
		for _, op := range byRoot[root] {
			if !op.TwoStep || op.Fact != nil || inLock[op] || op.Kind == Release && (!endsWork(op) || codeKey(op.Tmpl)) {
				continue
			}
			out = append(out, op)
			if obj, ok := root.Object().(*types.Func); ok && local[obj] != nil && local[obj].Key.String() == op.Key {
				local[obj].Reported = true
			}
		}
	}
	return out
}

// relevant is the fast path: a package that imports no Redis client and no
// package declaring lock wrappers has no locks.
func relevant(pass *analysis.Pass) bool {
	if hasHelpers(pass.Pkg) || link.Calls(pass.Pkg) {
		return true
	}
	lockPkg := func(p *types.Package) bool {
		return clients.Known(p.Path()) || hasHelpers(p) || pass.ImportPackageFact(p, new(PackageFact))
	}
	for _, imp := range pass.Pkg.Imports() {
		if lockPkg(imp) {
			return true
		}
	}
	// A client reached through another package's variable
	// (global.RedisClient.SetNX) is used without its package being imported.
	for _, sel := range pass.TypesInfo.Selections {
		if p := sel.Obj().Pkg(); p != nil && p != pass.Pkg && lockPkg(p) {
			return true
		}
	}
	return false
}

func collect(r *recognizer, funcs []*ssa.Function) map[*ssa.Function][]*Op {
	byRoot := make(map[*ssa.Function][]*Op)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				for _, op := range r.ops(fn, call) {
					op.constField = r.consts.holds(op.Value)
					op.fixed = r.fixed.name(op)
					byRoot[ssautil.Root(fn)] = append(byRoot[ssautil.Root(fn)], op)
				}
			}
		}
	}
	for _, ops := range byRoot {
		sort.SliceStable(ops, func(i, j int) bool { return ops[i].Pos() < ops[j].Pos() })
	}
	return byRoot
}

func sortedRoots(byRoot map[*ssa.Function][]*Op) []*ssa.Function {
	roots := make([]*ssa.Function, 0, len(byRoot))
	for fn := range byRoot {
		roots = append(roots, fn)
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i].Pos() < roots[j].Pos() })
	return roots
}

// pairInFunc makes a Lock of each acquisition that the same function (its
// closures included) later releases.
func pairInFunc(ops []*Op) []*Lock {
	var locks []*Lock
	for _, a := range ops {
		if a.Kind != Acquire || a.asserted() {
			continue
		}
		l := &Lock{Acquire: a}
		for _, o := range ops {
			if o == a || !o.sameKey(a) || (o.Pos() < a.Pos() && !o.Deferred()) {
				continue
			}
			switch o.Kind {
			case Release:
				if !l.takesOver(o, ops) {
					l.Releases = append(l.Releases, o)
				}
			case Refresh:
				if o != splitExpire(a, ops) {
					l.Refreshes = append(l.Refreshes, o)
				}
			}
		}
		l.Expire = splitExpire(a, ops)
		l.Tokens = tokens(a, ops)
		if a.Fact != nil && a.Fact.Drops && !allDeferred(l.Releases) {
			continue
		}
		// A key deleted only when the work failed is a marker cleared for a
		// retry, unless it lives for seconds: then it is a lease the failure
		// gives back, and may by then be another holder's. So is a key a loop
		// took before another was refused, rolled back from the list it
		// collected the keys in: all of them or none is a lock's way.
		if len(l.Releases) > 0 && (!allOnErrorPath(l.Releases) || shortTTL(a.TTLExpr) || rollsBack(l.Releases)) || len(l.Releases) == 0 && renewedInBackground(l) {
			locks = append(locks, l)
		}
	}
	return locks
}

func rollsBack(releases []*Op) bool {
	return slices.ContainsFunc(releases, func(r *Op) bool { return collected(r.Tmpl) })
}

// renewedInBackground reports whether a goroutine started under the lock
// renews its key: a lease held while the work runs and left to expire after
// it, as cron runners that never delete their key hold one.
func renewedInBackground(l *Lock) bool {
	for _, r := range l.Refreshes {
		if _, ok := r.Instr.(*ssa.Go); ok {
			return true
		}
		for fn := r.Fn; fn != nil && fn != l.Acquire.Fn; fn = fn.Parent() {
			if ssautil.StartedAsGoroutine(fn) {
				return true
			}
		}
	}
	return false
}

// tokens finds the fencing tokens of the lock a takes: its own result when it
// is a token script, an INCR after it, or a revision read from the lock object.
func tokens(a *Op, ops []*Op) []*Op {
	var out []*Op
	if a.Token {
		out = append(out, a)
	}
	for _, o := range ops {
		if o.Kind != Count || !o.Token || o.Pos() < a.Pos() {
			continue
		}
		if o.Library && o.Key != a.Key {
			continue // another mutex's revision
		}
		out = append(out, o)
	}
	return out
}

// splitExpire returns the EXPIRE that gives an acquisition without a TTL its
// TTL in a second command of the same function: SETNX then EXPIRE.
func splitExpire(a *Op, ops []*Op) *Op {
	if a.Kind != Acquire || a.TTL != TTLNone {
		return nil
	}
	for _, o := range ops {
		if o.Kind == Refresh && o.Key == a.Key && o.Fn == a.Fn && o.Pos() > a.Pos() && !o.Deferred() && !o.Checked {
			return o
		}
	}
	return nil
}

func allOnErrorPath(ops []*Op) bool {
	for _, op := range ops {
		if !onErrorPath(op) {
			return false
		}
	}
	return true
}

func allDeferred(ops []*Op) bool {
	for _, op := range ops {
		if !op.Deferred() {
			return false
		}
	}
	return len(ops) > 0
}
