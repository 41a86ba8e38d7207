// Package effects is the pass that summarises what each function does to the
// world outside the process, so that a check looking at a lock's critical region
// sees through calls: a repository method or a sqlc query method called under
// the lock writes SQL there, two packages away.
//
// Today a summary lists the SQL writes a function makes, directly or through the
// functions it calls; each travels to importing packages as a fact.
package effects

import (
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/lazyssa"
	"github.com/lockvet/lockvet/internal/sqlcall"
	"github.com/lockvet/lockvet/internal/sqltext"
)

// Analyzer summarises the effects of a package's functions.
var Analyzer = &analysis.Analyzer{
	Name:       "effects",
	Doc:        "summarise the SQL writes of each function, across packages",
	Run:        run,
	Requires:   []*analysis.Analyzer{lazyssa.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Summary), new(packageFact)},
}

// Write is one SQL write a function makes.
type Write struct {
	Stmt      sqltext.Stmt
	Checked   bool   // the code looks at how many rows it changed
	RowLocked bool   // it runs in a transaction that first locked its rows (SELECT … FOR UPDATE)
	Via       string // the function it is made in, when not the one summarised
}

// Summary is a function's effects.
type Summary struct {
	Writes []Write
}

// AFact marks Summary as an analysis fact.
func (*Summary) AFact() {}

func (s *Summary) String() string {
	out := "writes"
	for _, w := range s.Writes {
		out += " " + w.Stmt.Kind.String() + " " + w.Stmt.Table
	}
	return out
}

// packageFact marks a package whose functions have summaries, so that packages
// importing it are not skipped by the fast path.
type packageFact struct{}

func (*packageFact) AFact()         {}
func (*packageFact) String() string { return "effects" }

// Result tells, for each call in the package, which SQL it runs: directly (Direct)
// or inside the function it calls (Calls).
type Result struct {
	Direct map[ssa.CallInstruction]*sqlcall.Call
	Calls  map[ssa.CallInstruction]*Summary
	// RowLocked holds the direct writes made in a transaction that first
	// locked their rows with SELECT … FOR UPDATE.
	RowLocked map[ssa.CallInstruction]bool
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{
		Direct:    map[ssa.CallInstruction]*sqlcall.Call{},
		Calls:     map[ssa.CallInstruction]*Summary{},
		RowLocked: map[ssa.CallInstruction]bool{},
	}
	if !relevant(pass) {
		return res, nil
	}
	prog := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Lazy).SSA()
	rec := sqlcall.NewRecognizer(pass, prog.Pkg)
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
	summaries := summarise(pass, prog, res)
	for fn, s := range summaries {
		pass.ExportObjectFact(fn.Object(), s)
	}
	if len(summaries) > 0 {
		pass.ExportPackageFact(new(packageFact))
	}
	return res, nil
}

// sqlPackages are the packages that run SQL.
var sqlPackages = map[string]bool{
	"database/sql": true, "github.com/jmoiron/sqlx": true, "github.com/jackc/pgx/v5": true,
	"github.com/jackc/pgx/v5/pgxpool": true, "github.com/jackc/pgx/v4": true,
	"github.com/jackc/pgx/v4/pgxpool": true, "gorm.io/gorm": true,
}

func relevant(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		if sqlPackages[imp.Path()] || pass.ImportPackageFact(imp, new(packageFact)) {
			return true
		}
	}
	return false
}
