// Package record is the pass that writes a package's link.Record: the facts
// of its concrete methods, with their signatures, and the interfaces whose
// methods it calls. Only the lockvet command runs it, as a check of its own,
// and reads the record back from its diagnostic (category link.Category);
// hosts that see one package at a time have no link step.
package record

import (
	"encoding/json"
	"go/ast"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/effects"
	"github.com/lockvet/lockvet/internal/guard"
	"github.com/lockvet/lockvet/internal/lazyssa"
	"github.com/lockvet/lockvet/internal/link"
	"github.com/lockvet/lockvet/internal/lockmodel"
)

// Category marks the diagnostic that carries a package's record.
const Category = "lockvet-link"

// Analyzer writes the package's link record.
var Analyzer = guard.Protect(&analysis.Analyzer{
	Name:     "linkrecord",
	Doc:      "record the facts of a package's methods and the interface methods it calls, for the link step",
	Requires: []*analysis.Analyzer{inspect.Analyzer, lazyssa.Analyzer, lockmodel.Analyzer, effects.Analyzer},
	Run:      run,
})

func run(pass *analysis.Pass) (any, error) {
	if len(pass.Files) == 0 {
		return nil, nil
	}
	model := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	eff := pass.ResultOf[effects.Analyzer].(*effects.Result)
	rec := link.Record{Package: pass.Pkg.Path(), Types: concreteTypes(pass, model, eff), Calls: calls(pass), Paired: paired(pass, model),
		Into: into(pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Lazy)), Imports: imports(pass.Pkg)}
	// Even an empty record says the package is analysed: a wrapper of it
	// that another package pairs into a lock is reported in it.
	data, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	pass.Report(analysis.Diagnostic{Pos: pass.Files[0].Package, Category: Category, Message: string(data)})
	return nil, nil
}

// concreteTypes lists the package's named types that have methods with
// facts, test doubles left out.
func concreteTypes(pass *analysis.Pass, model *lockmodel.Model, eff *effects.Result) []link.Type {
	fset := pass.Fset
	byType := make(map[*types.Named]*link.Type)
	add := func(m *types.Func, set func(*link.Facts)) {
		recv := m.Type().(*types.Signature).Recv()
		if recv == nil {
			return
		}
		n, ok := types.Unalias(derefType(recv.Type())).(*types.Named)
		if !ok || types.IsInterface(n) || isDouble(fset, n) {
			return
		}
		t := byType[n]
		if t == nil {
			t = &link.Type{Name: link.TypeName(n), Methods: methods(types.NewPointer(n)), Facts: map[string]link.Facts{}}
			byType[n] = t
		}
		f := t.Facts[m.Name()]
		f.From = n.Obj().Pkg().Name() + "." + n.Obj().Name() + "." + m.Name()
		f.Func, f.Pkg = m.FullName(), n.Obj().Pkg().Path()
		set(&f)
		t.Facts[m.Name()] = f
	}
	for m, f := range model.Wrappers {
		add(m, func(lf *link.Facts) { lf.Wrapper = marshal(f) })
	}
	for m, f := range model.RunsUnder {
		add(m, func(lf *link.Facts) { lf.Callback = marshal(f) })
	}
	for m, s := range eff.Summaries {
		add(m, func(lf *link.Facts) { lf.Summary = marshal(s) })
	}
	out := make([]link.Type, 0, len(byType))
	for _, t := range byType {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// into lists, for each named type the package's code converts (or a
// pointer to which it converts) to a named interface, the interfaces, from
// the SSA form if a check built it.
func into(lazy *lazyssa.Lazy) map[string][]string {
	prog := lazy.Built()
	if prog == nil {
		return nil
	}
	seen := make(map[[2]string]bool)
	out := make(map[string][]string)
	for _, fn := range prog.SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				mi, ok := instr.(*ssa.MakeInterface)
				if !ok {
					continue
				}
				iface, ok := types.Unalias(mi.Type()).(*types.Named)
				if !ok || iface.Obj().Pkg() == nil {
					continue
				}
				c, ok := types.Unalias(derefType(mi.X.Type())).(*types.Named)
				if !ok || c.Obj().Pkg() == nil || types.IsInterface(c) {
					continue
				}
				k := [2]string{link.TypeName(c), link.TypeName(iface)}
				if !seen[k] {
					seen[k] = true
					out[k[0]] = append(out[k[0]], k[1])
				}
			}
		}
	}
	for _, ifaces := range out {
		sort.Strings(ifaces)
	}
	return out
}

// paired lists the wrappers of other packages that the package's locks are
// taken and released through, sorted.
func paired(pass *analysis.Pass, model *lockmodel.Model) []link.Wrapper {
	seen := make(map[link.Wrapper]bool)
	var out []link.Wrapper
	for _, l := range model.Locks {
		for _, op := range append(append([]*lockmodel.Op{l.Acquire}, l.Releases...), l.Refreshes...) {
			// Through this package's own wrappers to the first of another
			// package's: LockNodeStatus → cache.Lock.
			for o := op; o != nil; o = o.Inner {
				pkg, fn := o.WrapperFunc()
				if o.Fact != nil && o.Fact.Forwards {
					break // reported at the call: the forwarder decides nothing
				}
				if w := (link.Wrapper{Pkg: pkg, Func: fn}); fn != "" && pkg != pass.Pkg.Path() {
					if !seen[w] {
						seen[w] = true
						out = append(out, w)
					}
					break
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Func < out[j].Func })
	return out
}

// calls lists the named interfaces whose methods the package calls.
func calls(pass *analysis.Pass) []link.Iface {
	seen := make(map[*types.Named]bool)
	var out []link.Iface
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.Preorder([]ast.Node{(*ast.SelectorExpr)(nil)}, func(n ast.Node) {
		sel := pass.TypesInfo.Selections[n.(*ast.SelectorExpr)]
		if sel == nil || sel.Kind() != types.MethodVal {
			return
		}
		named, ok := types.Unalias(derefType(sel.Recv())).(*types.Named)
		if !ok || !types.IsInterface(named) {
			return
		}
		add := func(n *types.Named) {
			if !seen[n] && n.Obj().Pkg() != nil {
				seen[n] = true
				out = append(out, link.Iface{Name: link.TypeName(n), Methods: methods(n)})
			}
		}
		add(named)
		// A method of an embedded interface (Store embeds LockStore) is
		// looked up by the interface that declares it.
		if recv := sel.Obj().(*types.Func).Type().(*types.Signature).Recv(); recv != nil {
			if decl, ok := types.Unalias(recv.Type()).(*types.Named); ok && types.IsInterface(decl) {
				add(decl)
			}
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func methods(t types.Type) map[string]string {
	ms := types.NewMethodSet(t)
	out := make(map[string]string, ms.Len())
	for i := range ms.Len() {
		m := ms.At(i).Obj().(*types.Func)
		out[m.Name()] = link.Signature(m.Type().(*types.Signature))
	}
	return out
}

func derefType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func marshal(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return data
}

// imports lists the paths the package imports, sorted.
func imports(pkg *types.Package) []string {
	var out []string
	for _, imp := range pkg.Imports() {
		out = append(out, imp.Path())
	}
	sort.Strings(out)
	return out
}
