// Package link joins what lockvet learns of each package into what the whole
// program does, as a linker joins object files: a call through an interface
// (s.locks.TryLock, s.orders.MarkPaid) reaches the implementation the
// program has, though the package that makes the call never imports it.
//
// Each package the command analyses tells the link step, in a Record, the
// facts of its concrete methods with their signatures, and the interfaces it
// calls methods of. Join matches interfaces to the types that implement
// them, structurally, and gives each interface method the facts of its one
// implementation (or of several that agree); test doubles (the mocks
// mockery, gomock, minimock, moq and counterfeiter write, and types declared
// in test files) take no part. The command then analyses the
// packages that call those methods once more with the table Set, where
// lockmodel and effects read an interface call as a call of its
// implementation. Hosts that see one package at a time have no table: an
// interface call stays what it is there, unknown.
package link

import (
	"encoding/json"
	"go/types"
	"maps"
	"slices"
	"sort"
	"sync"
)

// Facts are one method's facts, each as its pass encodes it: a lock
// wrapper's, a with-lock callback's, a summary of effects.
type Facts struct {
	From     string          // the implementation, for messages: redislock.Locker.TryLock
	Func     string          // the implementation's full name: (*example.com/redislock.Locker).TryLock
	Pkg      string          // the implementation's package path
	Wrapper  json.RawMessage `json:",omitempty"`
	Callback json.RawMessage `json:",omitempty"`
	Summary  json.RawMessage `json:",omitempty"`
}

func (f Facts) empty() bool { return f.Wrapper == nil && f.Callback == nil && f.Summary == nil }

func (f Facts) same(g Facts) bool {
	return f.From == g.From && string(f.Wrapper) == string(g.Wrapper) && string(f.Callback) == string(g.Callback) && string(f.Summary) == string(g.Summary)
}

// Type is a concrete type whose methods have facts: its method set (of the
// pointer, which holds every method) by name and signature, and the facts.
type Type struct {
	Name    string            // path.T
	Methods map[string]string // name → signature
	Facts   map[string]Facts  // name → facts, for the methods that have any
	Into    []string          `json:"-"` // the interfaces the program converts it to, set by Join
}

// Iface is an interface the package calls methods of, with its method set.
type Iface struct {
	Name    string            // path.I
	Methods map[string]string // name → signature
}

// Record is what one package tells the link step.
type Record struct {
	Package string
	Types   []Type  `json:",omitempty"`
	Calls   []Iface `json:",omitempty"`
	// Paired are the wrappers of other packages this package pairs into
	// locks: their own problems belong in them, when they are analysed too.
	Paired []Wrapper `json:",omitempty"`
	// Into are, for the named types the package converts to a named
	// interface (path.T → path.I), the interfaces: the ports a type is
	// wired into. Packages whose SSA form lockvet did not build say none.
	Into map[string][]string `json:",omitempty"`
	// Imports are the paths the package imports: a package analysed again
	// may export new facts (a wrapper of a method the table resolves), so
	// its importers are analysed again too.
	Imports []string `json:",omitempty"`
}

// Wrapper names a function by its full name and package path.
type Wrapper struct {
	Pkg, Func string
}

// Join matches the interfaces the program calls with the types that
// implement them, and returns the facts of each interface method
// ("path.I.M") that has one implementation with facts for it, or several
// with the same; the wrappers that some package pairs into a lock and whose
// own package is analysed too (their problems are reported in them); and the
// packages to analyse again with both: those that call such a method or
// wrapper, those that declare such a wrapper, and the packages that import
// one of those (their wrappers' facts may change with the table).
func Join(records []Record) (table map[string]Facts, paired map[string]bool, callers []string) {
	var types []Type
	into := make(map[string][]string)
	for _, r := range records {
		types = append(types, r.Types...)
		for t, ifaces := range r.Into {
			into[t] = append(into[t], ifaces...)
		}
	}
	sort.Slice(types, func(i, j int) bool { return types[i].Name < types[j].Name })
	for i := range types {
		types[i].Into = into[types[i].Name]
	}
	table = make(map[string]Facts)
	ambiguous := make(map[string]bool)
	for _, r := range records {
		calls := false
		for _, iface := range r.Calls {
			for m := range iface.Methods {
				key := iface.Name + "." + m
				if ambiguous[key] {
					continue
				}
				if _, ok := table[key]; ok {
					calls = true
					continue
				}
				f, ok := resolve(iface, m, types)
				if !ok {
					ambiguous[key] = true
					continue
				}
				table[key], calls = f, true
			}
		}
		if calls {
			callers = append(callers, r.Package)
		}
	}
	analysed := make(map[string]bool)
	for _, r := range records {
		analysed[r.Package] = true
	}
	paired = make(map[string]bool)
	for _, r := range records {
		for _, w := range r.Paired {
			if analysed[w.Pkg] && w.Pkg != r.Package {
				paired[w.Func] = true
				callers = append(callers, r.Package, w.Pkg)
			}
		}
	}
	return table, paired, withImporters(records, callers)
}

// withImporters adds to pkgs the analysed packages that import one of them,
// directly or not, sorted and each once.
func withImporters(records []Record, pkgs []string) []string {
	importers := make(map[string][]string)
	for _, r := range records {
		for _, imp := range r.Imports {
			importers[imp] = append(importers[imp], r.Package)
		}
	}
	seen := make(map[string]bool)
	for queue := slices.Clone(pkgs); len(queue) > 0; {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		queue = append(queue, importers[p]...)
	}
	out := slices.Collect(maps.Keys(seen))
	slices.Sort(out)
	return out
}

// resolve returns the facts of method m of iface in the types that
// implement it. Each kind of fact comes from the implementations that have
// one, when they agree: a lock wrapper's from the Redis implementation, though
// an in-memory one for tests stands beside it (it wraps no lock, and has no
// wrapper fact). A summary of effects must agree across every implementation
// with facts, for what the call does is what any of them may do.
func resolve(iface Iface, m string, types []Type) (Facts, bool) {
	var wrapper, callback, summary *Facts
	clash := map[string]bool{}
	pick := func(slot **Facts, f *Facts, part func(*Facts) json.RawMessage, kind string) {
		switch {
		case *slot == nil:
			*slot = f
		case (*slot).From != f.From || string(part(*slot)) != string(part(f)):
			clash[kind] = true
		}
	}
	for _, t := range implementers(iface, m, types) {
		f := t.Facts[m]
		if f.Wrapper != nil {
			pick(&wrapper, &f, func(f *Facts) json.RawMessage { return f.Wrapper }, "wrapper")
		}
		if f.Callback != nil {
			pick(&callback, &f, func(f *Facts) json.RawMessage { return f.Callback }, "callback")
		}
		pick(&summary, &f, func(f *Facts) json.RawMessage { return f.Summary }, "summary")
	}
	var out Facts
	for _, p := range []struct {
		from *Facts
		kind string
		set  func(*Facts)
	}{
		{summary, "summary", func(f *Facts) { out.Summary = f.Summary }},
		{callback, "callback", func(f *Facts) { out.Callback = f.Callback }},
		{wrapper, "wrapper", func(f *Facts) { out.Wrapper = f.Wrapper }},
	} {
		if p.from == nil || clash[p.kind] {
			continue
		}
		p.set(p.from)
		out.From, out.Func, out.Pkg = p.from.From, p.from.Func, p.from.Pkg
	}
	return out, !out.empty()
}

// implementers returns the types with facts for method m that implement
// iface. Small interfaces match many types by shape alone (every lease has
// Release(ctx) (bool, error)); when the program converts some of them to
// iface, those are its implementations, and the others are another port's.
func implementers(iface Iface, m string, types []Type) []Type {
	var shaped, wired []Type
	for _, t := range types {
		if f, ok := t.Facts[m]; ok && !f.empty() && implements(t, iface) {
			shaped = append(shaped, t)
			if slices.Contains(t.Into, iface.Name) {
				wired = append(wired, t)
			}
		}
	}
	if len(wired) > 0 {
		return wired
	}
	return shaped
}

func implements(t Type, iface Iface) bool {
	for m, sig := range iface.Methods {
		if t.Methods[m] != sig {
			return false
		}
	}
	return true
}

var (
	mu      sync.RWMutex
	table   map[string]Facts
	pairs   map[string]bool
	calling map[string]bool
)

// Set installs the joined table, the paired wrappers, and the packages that
// call them, for the analysis that follows; nil removes them. The command
// sets an empty table before its first round: a link step follows.
func Set(t map[string]Facts, paired map[string]bool, callers []string) {
	mu.Lock()
	defer mu.Unlock()
	table, pairs, calling = t, paired, make(map[string]bool)
	for _, p := range callers {
		calling[p] = true
	}
}

// Linked reports whether a link step joins this analysis with the rest of
// the program, as in the command; hosts that see one package at a time do
// not link.
func Linked() bool {
	mu.RLock()
	defer mu.RUnlock()
	return table != nil
}

// Calls reports whether pkg calls an interface method the table resolves:
// it is worth analysing whatever it imports.
func Calls(pkg *types.Package) bool {
	mu.RLock()
	defer mu.RUnlock()
	return calling[pkg.Path()]
}

// Paired reports whether some analysed package pairs the function of this
// full name, itself analysed, into a lock: its own problems are reported in
// it, not at the calls.
func Paired(fullName string) bool {
	mu.RLock()
	defer mu.RUnlock()
	return pairs[fullName]
}

// Lookup returns the facts the program has for a call of the interface
// method m.
func Lookup(m *types.Func) (Facts, bool) {
	mu.RLock()
	defer mu.RUnlock()
	if table == nil || m.Pkg() == nil {
		return Facts{}, false
	}
	recv := m.Type().(*types.Signature).Recv()
	if recv == nil {
		return Facts{}, false
	}
	n, ok := types.Unalias(recv.Type()).(*types.Named)
	if !ok {
		return Facts{}, false
	}
	f, ok := table[TypeName(n)+"."+m.Name()]
	return f, ok
}

// TypeName names a named type as records do: path.T.
func TypeName(n *types.Named) string {
	if n.Obj().Pkg() == nil {
		return n.Obj().Name()
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// Signature renders a method's signature as records compare it: package
// paths in full, so that two packages' views of one type read the same, and
// without parameter names, which an implementation need not share with the
// interface it satisfies.
func Signature(sig *types.Signature) string {
	return types.TypeString(types.NewSignatureType(nil, nil, nil, unnamed(sig.Params()), unnamed(sig.Results()), sig.Variadic()), nil)
}

func unnamed(t *types.Tuple) *types.Tuple {
	vars := make([]*types.Var, t.Len())
	for i := range vars {
		vars[i] = types.NewParam(t.At(i).Pos(), t.At(i).Pkg(), "", t.At(i).Type())
	}
	return types.NewTuple(vars...)
}
