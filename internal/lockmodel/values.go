package lockmodel

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// unwrap looks through the conversions that Go inserts around a value passed as
// interface{} or converted between string types: none of them changes which key
// or value reaches Redis.
func unwrap(v ssa.Value) ssa.Value {
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

// constString returns the string constant v holds, if it is one.
func constString(v ssa.Value) (string, bool) {
	c, ok := unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// isZeroConst reports whether v is the constant zero (a zero TTL).
func isZeroConst(v ssa.Value) bool {
	c, ok := unwrap(v).(*ssa.Const)
	if !ok {
		return false
	}
	if c.Value == nil {
		return true
	}
	switch c.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(c.Value) == 0
	}
	return false
}

// sliceElems recovers the elements of a slice built by a composite literal or a
// variadic call, in order. ok is false when the slice comes from elsewhere.
func sliceElems(v ssa.Value) (elems []ssa.Value, ok bool) {
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
	if at, isArr := typesDeref(arr.Type()).(*types.Array); isArr {
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

func typesDeref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// structFields recovers the fields set by a struct composite literal passed by
// value (go-redis SetArgs{Mode: "NX", TTL: …}), by field name.
func structFields(v ssa.Value) (map[string]ssa.Value, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok {
		return nil, false
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	st, ok := typesDeref(alloc.Type()).Underlying().(*types.Struct)
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

// globalInits maps each package-level variable of pkg to the value its
// initializer stores, so that `var unlock = redis.NewScript(src)` can be read
// where the variable is used.
func globalInits(pkg *ssa.Package) map[*ssa.Global]ssa.Value {
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
