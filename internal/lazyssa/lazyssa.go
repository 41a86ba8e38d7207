// Package lazyssa is a pass that builds a package's SSA form only when a check asks
// for it. Most packages hold no Redis or SQL call at all; building SSA for them, as
// the buildssa pass does unconditionally, would cost more than everything else
// lockvet does.
package lazyssa

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/guard"
)

// Analyzer provides a *Lazy.
var Analyzer = guard.Protect(&analysis.Analyzer{
	Name:       "lazyssa",
	Doc:        "build SSA form on demand",
	Run:        func(pass *analysis.Pass) (any, error) { return &Lazy{pass: pass}, nil },
	ResultType: reflect.TypeFor[*Lazy](),
})

// Lazy builds the SSA form of one package at most once, on first use.
type Lazy struct {
	pass *analysis.Pass
	once sync.Once
	ssa  atomic.Pointer[buildssa.SSA]
}

// SSA returns the package's SSA form, building it on the first call.
func (l *Lazy) SSA() *buildssa.SSA {
	l.once.Do(func() { l.ssa.Store(build(l.pass)) })
	return l.ssa.Load()
}

// Built returns the package's SSA form if a check has asked for it, and nil
// if none has: a pass that only gleans from SSA need not pay for it.
func (l *Lazy) Built() *buildssa.SSA { return l.ssa.Load() }

func build(pass *analysis.Pass) *buildssa.SSA {
	prog := ssa.NewProgram(pass.Fset, 0)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()

	var funcs []*ssa.Function
	var addAnons func(f *ssa.Function)
	addAnons = func(f *ssa.Function) {
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			addAnons(anon)
		}
	}
	addAnons(pkg.Members["init"].(*ssa.Function))
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			fn := prog.FuncValue(obj)
			if fd.Recv == nil && fd.Name.Name == "init" {
				fn = initFunc(pkg, fd.Pos())
			}
			if fn != nil && fn.Synthetic == "" {
				addAnons(fn)
			}
		}
	}
	return &buildssa.SSA{Pkg: pkg, SrcFuncs: funcs}
}

// initFunc finds the SSA function of the func init declared at pos: SSA names
// them init#1, init#2, … and the type checker gives them no object to look up.
func initFunc(pkg *ssa.Package, pos token.Pos) *ssa.Function {
	for name, m := range pkg.Members {
		if fn, ok := m.(*ssa.Function); ok && strings.HasPrefix(name, "init#") && fn.Syntax() != nil && fn.Syntax().Pos() == pos {
			return fn
		}
	}
	return nil
}
