// Package guard keeps a bug of lockvet's own from taking a run down: a panic
// in one analyzer on one package becomes one internal-error diagnostic for
// that package, and every other package is still analysed.
//
// Drivers differ in what a panic or an error costs. staticcheck's runner,
// which the lockvet command uses, dies on a panic, and marks every importer of
// a package whose analyzer returned an error as failed without analysing it.
// So a caught panic is never returned as an error: the analyzer that panicked
// yields the zero value of its result type (and no further facts), the
// analyzers that depend on it carry on with what they have, and the checks
// report the failure at the package clause, with the category Category, which
// the command prints as an internal error and other hosts show as a finding.
// A failure in a package analysed only for its facts (a dependency) travels to
// its importers as a package fact and is reported there.
package guard

import (
	"fmt"
	"go/types"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Category is the diagnostic category of an internal error.
const Category = "internal-error"

// Failed records a panic caught in one analyzer on one package.
type Failed struct {
	Package  string // the package being analysed
	Analyzer string
	Value    string // the panic value
	Where    string // the innermost frame in lockvet's own code: dir/file.go:line
}

// AFact marks Failed as an analysis fact.
func (*Failed) AFact() {}

func (f *Failed) failure() *Failed { return f }

// Fact is the package fact by which an analyzer with facts tells the
// importers of a package it failed on. Each such analyzer declares a type of
// its own for it among its FactTypes (no fact type may serve two analyzers):
//
//	type failed struct{ guard.Failed }
type Fact interface {
	analysis.Fact
	failure() *Failed
}

func (f *Failed) String() string {
	return fmt.Sprintf("panic in %s: %s (%s)", f.Analyzer, f.Value, f.Where)
}

var (
	mu        sync.Mutex
	protected = map[*analysis.Analyzer]bool{}
	// failedResults maps the zero results that stand in for the results of
	// analyzers that panicked to the failure, so that the analyzers depending
	// on them can tell.
	failedResults = map[any]*Failed{}
	// reported holds the failures already reported in a package: every check
	// sees them, one says so.
	reported = map[reportKey]bool{}
)

type reportKey struct {
	pkg *types.Package
	msg string
}

// Protect makes the Run of a, and of the analyzers it requires, catch
// panics, and returns a. It is idempotent, so every host may protect the
// analyzers it runs.
func Protect(a *analysis.Analyzer) *analysis.Analyzer {
	for _, req := range a.Requires {
		Protect(req)
	}
	mu.Lock()
	defer mu.Unlock()
	if protected[a] {
		return a
	}
	protected[a] = true
	if len(a.FactTypes) > 0 && failureFact(a) == nil {
		panic("guard: analyzer " + a.Name + " has facts but no guard.Fact among them")
	}
	run := a.Run
	a.Run = func(pass *analysis.Pass) (res any, err error) {
		defer func() {
			if v := recover(); v != nil {
				res, err = failed(pass, v), nil
			}
		}()
		res, err = run(pass)
		if f := depFailure(pass); f != nil {
			if a.ResultType == nil {
				reportOnce(pass, f)
			} else {
				markFailed(res, f)
			}
		}
		return res, err
	}
	return a
}

// failed records the panic v caught in pass and returns the result that
// stands in for the analyzer's.
func failed(pass *analysis.Pass, v any) any {
	f := &Failed{
		Package:  pass.Pkg.Path(),
		Analyzer: pass.Analyzer.Name,
		Value:    strings.SplitN(fmt.Sprint(v), "\n", 2)[0],
		Where:    ownFrame(),
	}
	if fact := failureFact(pass.Analyzer); fact != nil {
		*fact.failure() = *f
		pass.ExportPackageFact(fact)
	}
	if pass.Analyzer.ResultType == nil {
		reportOnce(pass, f)
		return nil
	}
	t := pass.Analyzer.ResultType
	if t.Kind() != reflect.Pointer {
		return reflect.Zero(t).Interface()
	}
	res := reflect.New(t.Elem()).Interface()
	markFailed(res, f)
	return res
}

// markFailed records that res stands in for a failed analyzer's result, or
// was computed without a failed one's. Only pointers identify a result.
func markFailed(res any, f *Failed) {
	if v := reflect.ValueOf(res); !v.IsValid() || v.Kind() != reflect.Pointer || v.IsNil() {
		return
	}
	mu.Lock()
	failedResults[res] = f
	mu.Unlock()
}

// depFailure returns a failure that leaves pass with less than it needs: a
// required analyzer's on this package, or, for an analyzer with facts, its own
// on a package this one imports.
func depFailure(pass *analysis.Pass) *Failed {
	mu.Lock()
	for _, req := range pass.Analyzer.Requires {
		res := pass.ResultOf[req]
		if v := reflect.ValueOf(res); !v.IsValid() || v.Kind() != reflect.Pointer {
			continue
		}
		if f := failedResults[res]; f != nil {
			mu.Unlock()
			return f
		}
	}
	mu.Unlock()
	for _, imp := range pass.Pkg.Imports() {
		if fact := failureFact(pass.Analyzer); fact != nil && pass.ImportPackageFact(imp, fact) {
			return fact.failure()
		}
	}
	return nil
}

// failureFact returns a new value of a's guard.Fact type, nil if it has none.
func failureFact(a *analysis.Analyzer) Fact {
	for _, f := range a.FactTypes {
		if _, ok := f.(Fact); ok {
			return reflect.New(reflect.TypeOf(f).Elem()).Interface().(Fact)
		}
	}
	return nil
}

// reportOnce reports f at the package clause of pass's first file, once per
// package however many checks see it.
func reportOnce(pass *analysis.Pass, f *Failed) {
	if len(pass.Files) == 0 {
		return
	}
	msg := fmt.Sprintf("internal error analysing %s: %s; findings here may be missing, please report it", f.Package, f)
	mu.Lock()
	key := reportKey{pass.Pkg, msg}
	done := reported[key]
	reported[key] = true
	mu.Unlock()
	if !done {
		pass.Report(analysis.Diagnostic{Pos: pass.Files[0].Package, Category: Category, Message: msg})
	}
}

// ownFrame returns where in lockvet's own code the panic happened: the
// innermost frame of this module below the runtime's.
func ownFrame() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		fr, more := frames.Next()
		if strings.Contains(fr.Function, "github.com/lockvet/lockvet/") && !strings.Contains(fr.Function, "/internal/guard.") {
			return filepath.Base(filepath.Dir(fr.File)) + "/" + filepath.Base(fr.File) + ":" + fmt.Sprint(fr.Line)
		}
		if !more {
			return "unknown frame"
		}
	}
}
