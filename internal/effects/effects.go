// Package effects is the pass that summarises what each function does outside
// the process, so that a check looking at a lock's critical region sees through
// calls: a repository method called under the lock writes SQL there, and a
// helper that posts to a payment API makes the lock earn its keep.
//
// A summary lists the SQL a function reads and writes, directly or through the
// functions it calls, and whether it does anything external (HTTP, gRPC, a
// message broker, a file, a Redis command) or calls code whose effects are
// unknown (an interface method, a func value, a package no summary covers).
// Summaries travel to importing packages as facts.
package effects

import (
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/lazyssa"
	"github.com/lockvet/lockvet/internal/sqlcall"
	"github.com/lockvet/lockvet/internal/sqltext"
)

// Analyzer summarises the effects of a package's functions.
var Analyzer = &analysis.Analyzer{
	Name:       "effects",
	Doc:        "summarise the SQL and external effects of each function, across packages",
	Run:        run,
	Requires:   []*analysis.Analyzer{lazyssa.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Summary), new(QueryText), new(packageFact)},
}

// Write is one SQL write a function makes.
type Write struct {
	Stmt    sqltext.Stmt
	Text    string // the statement as written, holes and all
	Checked bool   // the code looks at how many rows it changed
	// Serialized: another statement of its flow already lets only one caller
	// make it (see serialized).
	Serialized bool
	InLoop     bool   // it runs in a loop: a batch, not one row
	Via        string // the function it is made in, when not the one summarised
}

// Claims reports whether the write decides which of several racing callers
// goes on: a conditional write, or an INSERT … ON CONFLICT DO NOTHING, whose
// row count the code looks at.
func (w Write) Claims() bool { return w.Checked && w.Stmt.AdmitsOne() }

// Summary is what a function, or one call, does outside the process.
type Summary struct {
	Writes   []Write
	Reads    []string // tables read by SELECTs without a locking clause
	External string   // the first external call, "" if none
	Unknown  string   // the first call whose effects are unknown, "" if none
}

// AFact marks Summary as an analysis fact.
func (*Summary) AFact() {}

func (s *Summary) String() string {
	out := "effects"
	for _, w := range s.Writes {
		out += " write " + w.Stmt.Kind.String() + " " + w.Stmt.Table
	}
	for _, t := range s.Reads {
		out += " read " + t
	}
	if s.External != "" {
		out += " external " + s.External
	}
	if s.Unknown != "" {
		out += " unknown " + s.Unknown
	}
	return out
}

func (s *Summary) empty() bool {
	return len(s.Writes) == 0 && len(s.Reads) == 0 && s.External == "" && s.Unknown == ""
}

// maxListed bounds the writes and reads a summary lists, so that recursion and
// long call chains cannot grow facts without end.
const maxListed = 16

// merge adds what another summary does, made through the function via.
func (s *Summary) merge(o *Summary, via string) {
	for _, w := range o.Writes {
		if len(s.Writes) == maxListed {
			break
		}
		if w.Via == "" {
			w.Via = via
		}
		s.Writes = append(s.Writes, w)
	}
	for _, t := range o.Reads {
		if len(s.Reads) < maxListed {
			s.Reads = append(s.Reads, t)
		}
	}
	if s.External == "" && o.External != "" {
		s.External = o.External
	}
	if s.Unknown == "" && o.Unknown != "" {
		s.Unknown = o.Unknown
	}
}

// QueryText is the SQL text a function returns, or a package-level variable
// holds, so that db.Exec(ctx, queries.UpdateOrder(), …) in another package
// reads as the statement it runs.
type QueryText struct{ Text string }

// AFact marks QueryText as an analysis fact.
func (*QueryText) AFact() {}

func (q *QueryText) String() string { return "sql " + q.Text }

// packageFact marks a package the pass summarised: a function of it without a
// Summary fact does nothing outside the process.
type packageFact struct{}

func (*packageFact) AFact()         {}
func (*packageFact) String() string { return "effects" }

// Result tells what each call in the package does.
type Result struct {
	Direct map[ssa.CallInstruction]*sqlcall.Call // calls that run SQL
	Calls  map[ssa.CallInstruction]*Summary      // calls of functions that write SQL
	// Serialized holds the direct writes that another statement of their flow
	// already lets only one caller make (see serialized).
	Serialized map[ssa.CallInstruction]bool
	// Of is what each call does; nil for pure calls. Empty when the package
	// imports no SQL package and no package with summaries.
	Of map[ssa.CallInstruction]*Summary
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{
		Direct:     map[ssa.CallInstruction]*sqlcall.Call{},
		Calls:      map[ssa.CallInstruction]*Summary{},
		Serialized: map[ssa.CallInstruction]bool{},
		Of:         map[ssa.CallInstruction]*Summary{},
	}
	if !relevant(pass) {
		return res, nil
	}
	prog := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Lazy).SSA()
	rec := sqlcall.NewRecognizer(pass, prog.Pkg)
	rec.TextOf = func(obj types.Object) (string, bool) {
		q := new(QueryText)
		return q.Text, obj.Pkg() != pass.Pkg && pass.ImportObjectFact(obj, q)
	}
	exportTexts(pass, prog, rec)
	for _, fn := range prog.SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if c := rec.Recognize(call); c != nil {
						res.Direct[call] = c
					}
				}
			}
		}
	}
	for fn, s := range summarise(pass, prog, res) {
		pass.ExportObjectFact(fn.Object(), s)
	}
	pass.ExportPackageFact(new(packageFact))
	return res, nil
}

// exportTexts exports the SQL text of the package's functions that return
// one, and of its package-level variables that hold one.
func exportTexts(pass *analysis.Pass, prog *buildssa.SSA, rec *sqlcall.Recognizer) {
	isSQL := func(text string) bool { return sqltext.Parse(text).Kind != sqltext.Unknown }
	for _, fn := range prog.SrcFuncs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || !obj.Exported() {
			continue
		}
		if text, ok := rec.ReturnedText(fn); ok && isSQL(text) {
			pass.ExportObjectFact(obj, &QueryText{text})
		}
	}
	for _, m := range prog.Pkg.Members {
		if g, ok := m.(*ssa.Global); ok && g.Object() != nil && g.Object().Exported() {
			if text, ok := rec.VarText(g); ok && isSQL(text) {
				pass.ExportObjectFact(g.Object(), &QueryText{text})
			}
		}
	}
}

// sqlPackages are the packages that run SQL.
var sqlPackages = map[string]bool{
	"database/sql": true, "github.com/jmoiron/sqlx": true, "github.com/jackc/pgx/v5": true,
	"github.com/jackc/pgx/v5/pgxpool": true, "github.com/jackc/pgx/v4": true,
	"github.com/jackc/pgx/v4/pgxpool": true, "gorm.io/gorm": true,
}

// relevant is the fast path: only packages that run SQL, or call packages that
// do, are summarised. A call into any other package is judged by the table,
// and is unknown when the table does not know it: precision before recall.
func relevant(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		if sqlPackages[imp.Path()] || pass.ImportPackageFact(imp, new(packageFact)) {
			return true
		}
	}
	return false
}
