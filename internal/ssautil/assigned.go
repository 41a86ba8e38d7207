package ssautil

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Assigned looks through loads of variables assigned once, which is how a
// closure sees a variable it captured, and how its maker sees it after.
func Assigned(v ssa.Value) ssa.Value {
	for range 8 {
		load, ok := v.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return v
		}
		s := Stored(load.X)
		if s == nil {
			return v
		}
		v = s
	}
	return v
}

// Stored returns the one value ever stored in a local variable that is
// assigned once, also when a closure captured it; nil otherwise.
func Stored(addr ssa.Value) ssa.Value {
	for range 8 { // a closure in a closure captures it from the outer one
		fv, ok := addr.(*ssa.FreeVar)
		if !ok {
			break
		}
		addr = FreeVarBinding(fv)
	}
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var val ssa.Value
	for _, ref := range *alloc.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr != alloc || val != nil {
				return nil
			}
			val = x.Val
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			if closureStores(x, alloc) {
				return nil
			}
		default:
			return nil // its address escapes: anything may write through it
		}
	}
	return val
}

// closureStores reports whether the closure mc, or a closure it makes in
// turn, may assign the variable v it captured.
func closureStores(mc *ssa.MakeClosure, v ssa.Value) bool {
	fn := mc.Fn.(*ssa.Function)
	for i, b := range mc.Bindings {
		if b != v || i >= len(fn.FreeVars) {
			continue
		}
		for _, ref := range *fn.FreeVars[i].Referrers() {
			switch x := ref.(type) {
			case *ssa.UnOp, *ssa.DebugRef:
			case *ssa.MakeClosure:
				if closureStores(x, fn.FreeVars[i]) {
					return true
				}
			default:
				return true
			}
		}
	}
	return false
}

// Spilled returns the value a struct variable holds when it is a copy of
// one value that is only read, field by field: go/ssa keeps a value
// receiver or parameter in memory when its fields are selected (l.key), and
// l.key is then a field of the parameter. nil otherwise.
func Spilled(addr ssa.Value) ssa.Value { return SpilledField(addr, -1) }

// SpilledField is Spilled for the one field of index field (all fields when
// it is -1): a parameter job whose job.ID is only read still gives job.ID
// its value where the function writes job.Attempt.
func SpilledField(addr ssa.Value, field int) ssa.Value {
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var val ssa.Value
	for _, ref := range *alloc.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr != alloc || val != nil {
				return nil
			}
			val = x.Val
		case *ssa.MakeClosure:
			// A closure that captures the variable (defer func() { … job.ID … }())
			// and only reads the field.
			for i, b := range x.Bindings {
				if b == alloc && !onlyReadsField(x.Fn.(*ssa.Function).FreeVars[i], field) {
					return nil
				}
			}
		default:
			if !readsField(x, field) {
				return nil
			}
		}
	}
	return val
}

// readsField reports whether ref, a referrer of a struct variable, only
// reads field (any field when field is -1), or writes another field.
func readsField(ref ssa.Instruction, field int) bool {
	switch x := ref.(type) {
	case *ssa.UnOp, *ssa.DebugRef:
		return true
	case *ssa.FieldAddr:
		return field >= 0 && x.Field != field || onlyLoaded(x)
	}
	return false
}

// onlyReadsField reports whether every use of v, a closure's captured
// variable, only reads field.
func onlyReadsField(v ssa.Value, field int) bool {
	for _, ref := range *v.Referrers() {
		if !readsField(ref, field) {
			return false
		}
	}
	return true
}

// onlyLoaded reports whether the address addr is only read through.
func onlyLoaded(addr ssa.Value) bool {
	for _, ref := range *addr.Referrers() {
		switch x := ref.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}
