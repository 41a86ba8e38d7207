package sqlcall

import (
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/guard"
	"github.com/lockvet/lockvet/internal/lazyssa"
	"github.com/lockvet/lockvet/internal/sqltext"
)

// Analyzer finds the SQL calls of a package, and exports the SQL text its
// exported functions return and its exported variables hold, for the
// packages that run it: db.Exec(ctx, queries.UpdateOrder(), …).
var Analyzer = guard.Protect(&analysis.Analyzer{
	Name:       "sqlcall",
	Doc:        "find the calls that run SQL, with their statements, across packages",
	Run:        run,
	Requires:   []*analysis.Analyzer{lazyssa.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(QueryText), new(packageFact), new(failed)},
})

// Result is what the pass found in one package.
type Result struct {
	Calls map[ssa.CallInstruction]*Call // the calls that run SQL
	// SSA is the package's SSA form; nil when it imports no SQL package and
	// no package with SQL text, and so has no calls.
	SSA *buildssa.SSA
}

// QueryText is the SQL text a function returns, or a package-level variable
// holds.
type QueryText struct{ Text string }

// AFact marks QueryText as an analysis fact.
func (*QueryText) AFact() {}

func (q *QueryText) String() string { return "sql " + q.Text }

// packageFact marks a package that runs SQL or exports SQL text: its
// importers may too.
type packageFact struct{}

func (*packageFact) AFact()         {}
func (*packageFact) String() string { return "sql" }

// failed tells importers that the pass panicked on a package (see guard).
type failed struct{ guard.Failed }

// sqlPackages are the packages that run SQL.
var sqlPackages = map[string]bool{
	stdPath: true, sqlxPath: true, gormPath: true, gormV1Path: true,
	"github.com/jackc/pgx/v5": true, "github.com/jackc/pgx/v5/pgxpool": true,
	"github.com/jackc/pgx/v4": true, "github.com/jackc/pgx/v4/pgxpool": true,
	squirrelPath: true, bunPath: true, entPath: true, entPath + "/dialect/sql": true,
	xormPaths[0]: true, xormPaths[1]: true,
}

// Relevant reports whether pass's package can run SQL: it imports a SQL
// package, or a package that runs SQL or exports its text.
func Relevant(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		if sqlPackages[imp.Path()] || pass.ImportPackageFact(imp, new(packageFact)) {
			return true
		}
	}
	return false
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{Calls: map[ssa.CallInstruction]*Call{}}
	if !Relevant(pass) {
		return res, nil
	}
	res.SSA = pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Lazy).SSA()
	rec := NewRecognizer(pass, res.SSA.Pkg, res.SSA.SrcFuncs)
	rec.TextOf = func(obj types.Object) (string, bool) {
		q := new(QueryText)
		return q.Text, obj.Pkg() != pass.Pkg && pass.ImportObjectFact(obj, q)
	}
	exportTexts(pass, res.SSA, rec)
	for _, fn := range res.SSA.SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if c := rec.Recognize(call); c != nil {
						res.Calls[call] = c
					}
				}
			}
		}
	}
	pass.ExportPackageFact(new(packageFact))
	return res, nil
}

// exportTexts exports the SQL text of the package's exported functions that
// return one, and of its exported package-level variables that hold one.
func exportTexts(pass *analysis.Pass, prog *buildssa.SSA, rec *Recognizer) {
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
