package lockmodel

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// storedReleases returns the releases and refreshes of a lock object that
// the package looks up by key in a map it keeps for the whole process (a
// field or a global, sync.Map or map), where some function stores the object
// it has just locked:
//
//	func (r *Locker) Lock(ctx, key) error { l, err := r.c.Obtain(ctx, key, ttl, nil); …; r.locks.Store(key, l) }
//	func (r *Locker) Unlock(ctx, key) error { l, _ := r.locks.LoadAndDelete(key); return l.(*redislock.Lock).Release(ctx) }
//
// Two holders of one key in one process share the entry: the second
// overwrites it when the first's lease has run out, and the first's Unlock
// then releases the second's lock. A map local to one call is not shared.
func storedReleases(byRoot map[*ssa.Function][]*Op) []*Op {
	roots := sortedRoots(byRoot)
	stored := make(map[types.Object]string)
	for _, root := range roots {
		locked := make(map[ssa.Value]bool)
		for _, op := range byRoot[root] {
			if op.Kind == Acquire && op.KeyExpr != nil {
				locked[ssautil.Unwrap(op.KeyExpr)] = true
			}
		}
		if len(locked) == 0 {
			continue
		}
		forEachInstr(root, func(instr ssa.Instruction) {
			if m, name, v := mapStore(instr); m != nil && locked[ssautil.Unwrap(v)] {
				stored[m] = name
			}
		})
	}
	var out []*Op
	for _, root := range roots {
		for _, op := range byRoot[root] {
			if op.Kind != Release && op.Kind != Refresh || op.KeyExpr == nil {
				continue
			}
			if m := mapLoad(op.KeyExpr); m != nil && stored[m] != "" {
				op.StoredIn = stored[m]
				out = append(out, op)
			}
		}
	}
	return out
}

func forEachInstr(fn *ssa.Function, f func(ssa.Instruction)) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			f(instr)
		}
	}
	for _, anon := range fn.AnonFuncs {
		forEachInstr(anon, f)
	}
}

// mapStore returns the process-wide map instr stores a value in, and the
// value: m[k] = v, or m.Store(k, v) on a sync.Map.
func mapStore(instr ssa.Instruction) (types.Object, string, ssa.Value) {
	switch x := instr.(type) {
	case *ssa.MapUpdate:
		m, name := shared(x.Map)
		return m, name, x.Value
	case ssa.CallInstruction:
		c := x.Common()
		if syncMapMethod(c, "Store", "LoadOrStore", "Swap") {
			m, name := shared(c.Args[0])
			return m, name, c.Args[2]
		}
	}
	return nil, "", nil
}

// mapLoad returns the process-wide map v is looked up in: m[k], or
// m.Load(k) or m.LoadAndDelete(k) on a sync.Map, asserted to its type.
func mapLoad(v ssa.Value) types.Object {
	// v, ok := m.Load(k); l, ok := v.(*redislock.Lock): through the
	// assertion and its value, to the lookup and its.
	for range 4 {
		v = ssautil.Unwrap(v)
		if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
			v = ex.Tuple
		} else if ta, ok := v.(*ssa.TypeAssert); ok {
			v = ta.X
		} else {
			break
		}
	}
	switch x := v.(type) {
	case *ssa.Lookup:
		m, _ := shared(x.X)
		return m
	case *ssa.Call:
		if syncMapMethod(&x.Call, "Load", "LoadAndDelete") {
			m, _ := shared(x.Call.Args[0])
			return m
		}
	}
	return nil
}

func syncMapMethod(c *ssa.CallCommon, names ...string) bool {
	fn := c.StaticCallee()
	if fn == nil || len(c.Args) == 0 {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync" || ssautil.RecvName(obj) != "Map" {
		return false
	}
	for _, n := range names {
		if obj.Name() == n {
			return true
		}
	}
	return false
}

// shared returns the field or global the address addr points into, with
// its name (T.f): a map every call through the object, or the process,
// sees.
func shared(addr ssa.Value) (types.Object, string) {
	switch x := addr.(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return shared(x.X) // a *sync.Map held in the field
		}
	case *ssa.FieldAddr:
		if f := ssautil.FieldOf(x); f != nil {
			if named, ok := ssautil.Deref(x.X.Type()).(*types.Named); ok {
				return f, named.Obj().Name() + "." + f.Name()
			}
			return f, f.Name()
		}
	case *ssa.Global:
		return x.Object(), x.Name()
	}
	return nil, ""
}
