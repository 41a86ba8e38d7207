package ssautil

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Unwrap looks through the conversions that Go inserts around a value passed as
// interface{} or converted between string types: none of them changes which
// key, value or statement text reaches the server.
func Unwrap(v ssa.Value) ssa.Value {
	for range 16 {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		default:
			return v
		}
	}
	return v
}

// ConstString returns the string constant v holds, if it is one.
func ConstString(v ssa.Value) (string, bool) {
	c, ok := Unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// SliceElems recovers the elements of a slice built by a composite literal or a
// variadic call, in order. ok is false when the slice comes from elsewhere.
func SliceElems(v ssa.Value) (elems []ssa.Value, ok bool) {
	switch s := v.(type) {
	case *ssa.Const:
		return nil, s.IsNil()
	case *ssa.Slice:
		v = s.X
	default:
		return nil, false
	}
	arr, isAlloc := v.(*ssa.Alloc)
	if !isAlloc {
		return nil, false
	}
	n := 0
	if at, isArr := Deref(arr.Type()).(*types.Array); isArr {
		n = int(at.Len())
	}
	elems = make([]ssa.Value, n)
	for _, ref := range *arr.Referrers() {
		ia, isIdx := ref.(*ssa.IndexAddr)
		if !isIdx {
			continue
		}
		c, isConst := ia.Index.(*ssa.Const)
		if !isConst {
			return nil, false
		}
		i, exact := constant.Int64Val(c.Value)
		if !exact || i < 0 || int(i) >= n {
			return nil, false
		}
		for _, r := range *ia.Referrers() {
			if st, isStore := r.(*ssa.Store); isStore && st.Addr == ia {
				elems[i] = st.Val
			}
		}
	}
	for _, e := range elems {
		if e == nil {
			return nil, false
		}
	}
	return elems, true
}

// Deref returns what a pointer type points to, or t itself.
func Deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// StructFields recovers the fields set by a struct composite literal passed by
// value (go-redis SetArgs{Mode: "NX", TTL: …}), by field name.
func StructFields(v ssa.Value) (map[string]ssa.Value, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok {
		return nil, false
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	st, ok := Deref(alloc.Type()).Underlying().(*types.Struct)
	if !ok {
		return nil, false
	}
	fields := make(map[string]ssa.Value)
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		for _, r := range *fa.Referrers() {
			if s, ok := r.(*ssa.Store); ok && s.Addr == fa {
				fields[st.Field(fa.Field).Name()] = s.Val
			}
		}
	}
	return fields, true
}

// MapEntries recovers the entries of a map composite literal with string
// constant keys (gorm's map[string]any{"status": s}). ok is false when the map
// comes from elsewhere or a key is not a constant.
func MapEntries(v ssa.Value) (map[string]ssa.Value, bool) {
	mm, ok := Unwrap(v).(*ssa.MakeMap)
	if !ok {
		return nil, false
	}
	entries := make(map[string]ssa.Value)
	for _, ref := range *mm.Referrers() {
		up, ok := ref.(*ssa.MapUpdate)
		if !ok || up.Map != mm {
			continue
		}
		k, ok := ConstString(up.Key)
		if !ok {
			return nil, false
		}
		entries[k] = up.Value
	}
	return entries, true
}

// Embedded reports whether field number field of the struct t (or *t) is
// embedded: loads of such fields are how promoted methods reach their receiver.
func Embedded(t types.Type, field int) bool {
	st, ok := Deref(t).Underlying().(*types.Struct)
	return ok && field < st.NumFields() && st.Field(field).Embedded()
}

// Extract returns the instruction taking result index of call, if the code
// uses that result.
func Extract(call *ssa.Call, index int) *ssa.Extract {
	for _, ref := range *call.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == index {
			return ex
		}
	}
	return nil
}

// GlobalInits maps each package-level variable of pkg to the value its
// initializer stores, so that `var unlock = redis.NewScript(src)` can be read
// where the variable is used.
func GlobalInits(pkg *ssa.Package) map[*ssa.Global]ssa.Value {
	m := make(map[*ssa.Global]ssa.Value)
	init, _ := pkg.Members["init"].(*ssa.Function)
	if init == nil {
		return m
	}
	for _, b := range init.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if g, ok := st.Addr.(*ssa.Global); ok {
					m[g] = st.Val
				}
			}
		}
	}
	return m
}

// FreeVarBinding returns the value a closure's free variable is bound to in the
// enclosing function, so a key or handle captured by a closure is the outer one.
func FreeVarBinding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	idx := -1
	for i, f := range fn.FreeVars {
		if f == fv {
			idx = i
		}
	}
	parent := fn.Parent()
	if idx < 0 || parent == nil {
		return nil
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn && idx < len(mc.Bindings) {
				return mc.Bindings[idx]
			}
		}
	}
	return nil
}

// ParamBinding returns the argument a function literal's parameter is bound
// to when the literal has one call site, a call or defer in the function
// that makes it: defer func(key string) { … }(lockKey). Nil otherwise.
func ParamBinding(p *ssa.Parameter) ssa.Value {
	fn := p.Parent()
	parent := fn.Parent()
	if parent == nil {
		return nil
	}
	idx := -1
	for i, q := range fn.Params {
		if q == p {
			idx = i
		}
	}
	var bound ssa.Value
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			v := call.Common().Value
			if mc, ok := v.(*ssa.MakeClosure); ok {
				v = mc.Fn
			}
			if v != fn {
				continue
			}
			if bound != nil || idx < 0 || idx >= len(call.Common().Args) {
				return nil
			}
			bound = call.Common().Args[idx]
		}
	}
	return bound
}

// StartedAsGoroutine reports whether the closure fn is run by a go
// statement of the function that makes it.
func StartedAsGoroutine(fn *ssa.Function) bool {
	parent := fn.Parent()
	if parent == nil {
		return false
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			g, ok := instr.(*ssa.Go)
			if !ok {
				continue
			}
			switch v := g.Call.Value.(type) {
			case *ssa.MakeClosure:
				if v.Fn == fn {
					return true
				}
			case *ssa.Function:
				if v == fn {
					return true
				}
			}
		}
	}
	return false
}

// Appended returns the one value every element of the slice v holds when v
// is built only by appending that value to an empty slice, as a loop
// collects the keys it has locked so far (taken = append(taken, key)) to
// roll them back: an element read back is that value.
func Appended(v ssa.Value) (ssa.Value, bool) {
	var elem ssa.Value
	seen := make(map[ssa.Value]bool)
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Const:
			return x.IsNil()
		case *ssa.MakeSlice:
			n, ok := x.Len.(*ssa.Const)
			return ok && n.Value != nil && constant.Sign(n.Value) == 0
		case *ssa.Phi:
			for _, e := range x.Edges {
				if !walk(e) {
					return false
				}
			}
			return true
		case *ssa.Call:
			b, ok := x.Call.Value.(*ssa.Builtin)
			if !ok || b.Name() != "append" || len(x.Call.Args) != 2 {
				return false
			}
			elems, ok := SliceElems(x.Call.Args[1])
			if !ok {
				return false
			}
			for _, e := range elems {
				if elem != nil && e != elem {
					return false
				}
				elem = e
			}
			return walk(x.Call.Args[0])
		}
		return false
	}
	if !walk(v) || elem == nil {
		return nil, false
	}
	return elem, true
}
