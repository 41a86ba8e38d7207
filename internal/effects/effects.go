// Package effects is the pass that summarises what each function does outside
// the process, so that a check looking at a lock's critical region sees through
// calls: a repository method called under the lock writes SQL there, and a
// helper that posts to a payment API makes the lock earn its keep.
//
// A summary lists the SQL a function reads and writes, directly or through the
// functions it calls, whether it does anything external (HTTP, gRPC, a
// message broker, a file, a Redis command) or calls code whose effects are
// unknown (an interface method, a func value, a package no summary covers),
// and whether its result says if it won a claim (see Claim). Summaries travel
// to importing packages as facts. A package that runs no SQL gets no
// summaries; its exported functions that only compute, as its syntax shows
// (pure.go), are marked pure instead, so that a utility called under a lock
// is not unknown.
//
// Summaries are computed bottom-up over the strongly connected components of
// the package's call graph, each component iterated until nothing changes, in
// an order fixed by the source: the same package always gets the same
// summaries. A function of the package that has no summary of its own (a
// generic instance, a synthetic wrapper lockvet cannot see through) is
// unknown, never pure.
//
// The pass also answers, once per lock, what the lock's region does (Lock,
// Callback): the checks judge that and never walk the region themselves.
package effects

import (
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/guard"
	"github.com/lockvet/lockvet/internal/lazyssa"
	"github.com/lockvet/lockvet/internal/link"
	"github.com/lockvet/lockvet/internal/sqlcall"
	"github.com/lockvet/lockvet/internal/sqltext"
)

// Analyzer summarises the effects of a package's functions.
var Analyzer = guard.Protect(&analysis.Analyzer{
	Name:       "effects",
	Doc:        "summarise the SQL and external effects of each function, across packages",
	Run:        run,
	Requires:   []*analysis.Analyzer{lazyssa.Analyzer, sqlcall.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Summary), new(packageFact), new(pureFuncs), new(failed)},
})

// Write is one SQL write a function makes.
type Write struct {
	Stmt    sqltext.Stmt
	Text    string // the statement as written, holes and all
	Checked bool   // the code looks at how many rows it changed
	// Keyed: an INSERT that supplies the table's own key, so a second insert
	// of the same row fails (see sqlcall.Call.Keyed).
	Keyed bool
	// Serialized: another statement of its flow already lets only one caller
	// make it (see serialized).
	Serialized bool
	// TxParam, when above 0: a SELECT … FOR UPDATE on the handle that is
	// parameter TxParam-1 ({pN} numbering) came before the write, on the
	// same handle; it is Serialized when the caller passes a transaction
	// there (a repository method given the tx).
	TxParam int
	InLoop  bool   // it runs in a loop: a batch, not one row
	Via     string // the function it is made in, when not the one summarised
	// Params tells, for each placeholder argument in order, which parameter
	// of the summarised function binds it ({pN} numbering, the receiver
	// first), -1 for one that no parameter binds; nil when the arguments are
	// not known. A caller maps them to its own arguments.
	Params []int
}

// Claims reports whether the write decides which of several racing callers
// goes on: a conditional write that admits one caller, or an INSERT … ON
// CONFLICT DO NOTHING, whose row count the code looks at.
func (w Write) Claims() bool { return w.Checked && w.Stmt.AdmitsOne() }

// Read is a SELECT without a locking clause.
type Read struct {
	Table string
	Keys  []string // the columns its WHERE compares for equality
}

// Claim says that a function makes a claim (a write that admits one caller)
// and that its result tells its caller whether it won: code the caller runs
// only on that answer is serialized, like code on the winning branch of the
// claim itself.
type Claim struct {
	Result int       // the result that tells
	Won    ClaimSign // what it holds when the caller won
	Table  string    // the claimed table, for messages
}

// ClaimSign is how a claim's result reads when the caller won.
type ClaimSign int

const (
	NilError ClaimSign = iota + 1 // an error, nil when it won (ErrAlreadyPaid on 0 rows)
	True                          // a bool, true when it won
	Count                         // the row count itself, 1 when it won
)

// Summary is what a function, or one call, does outside the process.
type Summary struct {
	Writes   []Write
	Reads    []Read
	External string // the first external call, "" if none
	Unknown  string // the first call whose effects are unknown, "" if none
	Claim    *Claim
}

// AFact marks Summary as an analysis fact.
func (*Summary) AFact() {}

func (s *Summary) String() string {
	var b strings.Builder
	b.WriteString("effects")
	for _, w := range s.Writes {
		b.WriteString(" write " + w.Stmt.Kind.String() + " " + w.Stmt.Table)
		if w.Serialized {
			b.WriteString("(serialized)")
		}
	}
	for _, r := range s.Reads {
		b.WriteString(" read " + r.Table)
	}
	if s.External != "" {
		b.WriteString(" external " + s.External)
	}
	if s.Unknown != "" {
		b.WriteString(" unknown " + s.Unknown)
	}
	if c := s.Claim; c != nil {
		b.WriteString(" claim " + c.Table + " " + [...]string{"", "nil-error", "true", "count"}[c.Won])
	}
	return b.String()
}

func (s *Summary) empty() bool {
	return len(s.Writes) == 0 && len(s.Reads) == 0 && s.External == "" && s.Unknown == "" && s.Claim == nil
}

// maxListed bounds the writes and reads a summary lists, so that recursion and
// long call chains cannot grow facts without end.
const maxListed = 16

// merge adds what another summary does, made through the function via. A
// write or read listed already is not listed again, so that mutually
// recursive functions stop growing.
func (s *Summary) merge(o *Summary, via string) {
	for _, w := range o.Writes {
		if w.Via == "" {
			w.Via = via
		}
		if len(s.Writes) < maxListed && !slices.ContainsFunc(s.Writes, func(x Write) bool { return reflect.DeepEqual(x, w) }) {
			s.Writes = append(s.Writes, w)
		}
	}
	for _, r := range o.Reads {
		if len(s.Reads) < maxListed && !slices.ContainsFunc(s.Reads, func(x Read) bool { return reflect.DeepEqual(x, r) }) {
			s.Reads = append(s.Reads, r)
		}
	}
	if s.External == "" {
		s.External = o.External
	}
	if s.Unknown == "" {
		s.Unknown = o.Unknown
	}
}

// packageFact marks a package the pass summarised: a function of it without a
// Summary fact does nothing outside the process.
type packageFact struct{}

func (*packageFact) AFact()         {}
func (*packageFact) String() string { return "effects" }

// failed tells importers that effects panicked on a package (see guard).
type failed struct{ guard.Failed }

// Result tells what each call in the package does, and what each lock's
// region does.
type Result struct {
	SQL *sqlcall.Result
	// Of is what each call does, nil for pure calls: a write's Params are the
	// callee's. Empty when the package imports no SQL package and no package
	// with summaries.
	Of map[ssa.CallInstruction]*Summary

	// Summaries are the package's functions' summaries, for the link step.
	Summaries map[*types.Func]*Summary

	mu      sync.Mutex
	regions map[any]*Region
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{
		SQL:     pass.ResultOf[sqlcall.Analyzer].(*sqlcall.Result),
		Of:      map[ssa.CallInstruction]*Summary{},
		regions: map[any]*Region{},
	}
	if judged(pass.Pkg.Path()) {
		// A library the table knows (gorm, go-redis): its calls are judged
		// by the table, not by what its own body does (gorm's Transaction
		// calls the func it is handed, which is summarised where it is made).
		return res, nil
	}
	if !relevant(pass) {
		exportPure(pass)
		return res, nil
	}
	sums := summarise(pass, pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Lazy).SSA(), res)
	fns := make([]*ssa.Function, 0, len(sums))
	for fn := range sums {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	res.Summaries = make(map[*types.Func]*Summary, len(fns))
	for _, fn := range fns {
		if obj, ok := fn.Object().(*types.Func); ok {
			pass.ExportObjectFact(obj, sums[fn])
			res.Summaries[obj] = sums[fn]
		}
	}
	pass.ExportPackageFact(new(packageFact))
	return res, nil
}

// relevant is the fast path: only packages that run SQL, or call packages that
// do, are summarised. A call into any other package is judged by the table,
// and is unknown when the table does not know it: precision before recall.
func relevant(pass *analysis.Pass) bool {
	if sqlcall.Relevant(pass) || link.Calls(pass.Pkg) {
		return true
	}
	for _, imp := range pass.Pkg.Imports() {
		if pass.ImportPackageFact(imp, new(packageFact)) {
			return true
		}
	}
	return false
}
