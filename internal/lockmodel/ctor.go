package lockmodel

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// CtorFact describes a constructor: a function that returns a new struct
// whose fields it sets from its parameters, as NewLock(rdb, key, value)
// returns &Lock{key: key, value: value}. A lock method whose value is the
// receiver's field then stores, at each call, what the caller gave the
// constructor: a constant there is a constant at every acquisition.
type CtorFact struct {
	Fields []CtorField // sorted by name
}

// CtorField is one field a constructor sets from parameter Param.
type CtorField struct {
	Name  string
	Param int
}

func (*CtorFact) AFact() {}

func (f *CtorFact) String() string {
	parts := make([]string, len(f.Fields))
	for i, fl := range f.Fields {
		parts[i] = fmt.Sprintf("%s={p%d}", fl.Name, fl.Param)
	}
	return "ctor " + strings.Join(parts, " ")
}

func (f *CtorFact) param(field string) int {
	for _, fl := range f.Fields {
		if fl.Name == field {
			return fl.Param
		}
	}
	return -1
}

// ctorFact reads fn as a constructor, nil when it is none: every return
// hands back the same new struct, whose parameter-valued fields it records.
func ctorFact(fn *ssa.Function) *CtorFact {
	if fn.Signature.Results().Len() != 1 || fn.Signature.Recv() != nil {
		return nil
	}
	var alloc *ssa.Alloc
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		a, ok := ssautil.Unwrap(ret.Results[0]).(*ssa.Alloc)
		if !ok || alloc != nil && a != alloc {
			return nil
		}
		alloc = a
	}
	if alloc == nil || !alloc.Heap {
		return nil
	}
	f := &CtorFact{}
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		field := storedField(fa)
		for _, r := range *fa.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
				if k := keyValue(st.Val); k.Kind == Param && field != nil {
					f.Fields = append(f.Fields, CtorField{Name: field.Name(), Param: k.N})
				}
			}
		}
	}
	if len(f.Fields) == 0 {
		return nil
	}
	sort.Slice(f.Fields, func(i, j int) bool { return f.Fields[i].Name < f.Fields[j].Name })
	return f
}

// ctorFacts are the constructors of a package's functions.
func ctorFacts(funcs []*ssa.Function) map[*types.Func]*CtorFact {
	out := make(map[*types.Func]*CtorFact)
	for _, fn := range funcs {
		if obj, ok := fn.Object().(*types.Func); ok && fn.Synthetic == "" {
			if f := ctorFact(fn); f != nil {
				out[obj] = f
			}
		}
	}
	return out
}

// receiverField returns the name of the field of the wrapper's first
// parameter (its receiver) that k reads, "" when k is no such field.
func receiverField(k Key) string {
	if k.Kind != Deref || len(k.Args) != 1 {
		return ""
	}
	fld := k.Args[0]
	if fld.Kind != Field || len(fld.Args) != 1 || fld.Args[0].Kind != Param || fld.Args[0].N != 0 {
		return ""
	}
	return fld.Text
}

// constructed returns the argument the constructor that made recv gave to
// its field, and that call; nil when recv was not made by a known constructor.
func (r *recognizer) constructed(recv ssa.Value, field string) (ssa.Value, *ssa.Call) {
	call, ok := ssautil.Unwrap(ssautil.Assigned(ssautil.Unwrap(recv))).(*ssa.Call)
	if !ok {
		return nil, nil
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		return nil, nil
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return nil, nil
	}
	f := r.ctor(obj)
	if f == nil {
		return nil, nil
	}
	if n := f.param(field); n >= 0 && n < len(call.Call.Args) {
		return call.Call.Args[n], call
	}
	return nil, nil
}
