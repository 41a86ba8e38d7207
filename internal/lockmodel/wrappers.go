package lockmodel

import (
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/link"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// deriveFacts records, for each function that acquires, releases or refreshes a
// key taken from its parameters or receiver (and does not do the opposite to the
// same key itself), a WrapperFact. It reports whether any fact changed.
func deriveFacts(byRoot map[*ssa.Function][]*Op, local map[*types.Func]*WrapperFact) bool {
	changed := false
	for fn, ops := range byRoot {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Synthetic != "" {
			continue
		}
		markTwoStep(ops)
		f := wrapperFact(fn, ops)
		if f == nil {
			continue
		}
		if old, ok := local[obj]; !ok || old.String() != f.String() {
			local[obj] = f
			changed = true
		}
	}
	return changed
}

func wrapperFact(fn *ssa.Function, ops []*Op) *WrapperFact {
	for _, op := range ops {
		if op.Kind == Read || op.Kind == Count {
			continue
		}
		key := op.Tmpl
		if lease, field := returnedLease(fn, op); op.Kind == Acquire && op.Library && lease >= 0 && field == "" {
			// A library's lock object it made, locked and returns: callers
			// key the lock by the object, whatever made it.
			key = Key{Kind: Opaque, Text: "lease"}
		} else if !key.Template() {
			// A lock object the function made and returns, locked: its
			// callers key the lock by the object (returnedLease).
			if lease, _ := returnedLease(fn, op); op.Kind != Acquire || lease < 0 {
				continue
			}
			key = Key{Kind: Opaque, Text: "lease"}
		}
		unlockAt, unlock := returnedUnlock(fn, op, ops)
		expire := splitExpire(op, ops)
		if unlock == nil && selfContained(op, expire, ops) {
			continue
		}
		f := &WrapperFact{
			Kind: op.Kind, Key: key, Command: op.Command,
			ValueParam: valueParam(op.Value), TTLParam: paramIndex(op.TTLExpr), TTL: op.TTL,
			Checked: op.Checked, TwoStep: op.TwoStep, Token: -1, Lease: -1, Spread: op.Spread,
			UnlockResult: -1,
		}
		if f.ValueParam < 0 && op.Value != nil {
			f.ValueField = receiverField(keyValue(op.Value))
		}
		if op.Kind == Acquire || op.Checked {
			f.Fixed = op.FixedValue()
		}
		if unlock != nil {
			// The helper takes and releases the lock itself: its problems
			// are reported in it, once, not at each caller.
			f.UnlockResult, f.Reported = unlockAt, true
			f.Unlock = &WrapperFact{Kind: Release, Command: unlock.Command, Checked: unlock.Checked,
				TwoStep: unlock.TwoStep, ConstValue: unlock.Checked && unlock.Value != nil && unlock.ConstValue(),
				Token: -1, Lease: -1, UnlockResult: -1, Reported: true}
			if unlock.Fact != nil {
				f.Unlock.Command = unlock.Fact.Command
			}
		}
		switch {
		case expire != nil:
			f.SplitTTL, f.TTLParam = true, paramIndex(expire.TTLExpr)
		case op.Fact != nil && op.Fact.SplitTTL:
			f.SplitTTL = true // a wrapper of one that sets the TTL second
		}
		if op.Kind == Acquire {
			f.ConstValue, f.RepeatsKey = op.ConstValue(), op.RepeatsKey()
			f.Drops = !op.Outcome().Checked() && !op.Queued
			f.Token, f.Grant = returnedToken(fn, op, ops)
			f.Lease, f.LeaseKey = returnedLease(fn, op)
		}
		if op.Fact != nil {
			f.Command = op.Fact.Command
		}
		f.Forwards = forwards(fn, op, f)
		return f
	}
	return readFact(fn, ops)
}

// forwards reports whether fn is a command forwarder: named as the call it
// makes (or the command it sends), and passing that call's key, value and
// TTL through from its own parameters.
func forwards(fn *ssa.Function, op *Op, f *WrapperFact) bool {
	if !oneParam(fn, f.Key) && !f.Spread || f.Unlock != nil || f.SplitTTL {
		return false
	}
	if op.Kind == Acquire && (f.ValueParam < 0 || f.TTLParam < 0 && f.TTL != TTLNone) {
		return false
	}
	name := commandName(fn.Name())
	if name == commandName(f.Command) || op.Kind == Release && (name == "delete" || name == "remove") {
		return true
	}
	callee := op.Instr.Common().Method
	if sc := op.Instr.Common().StaticCallee(); callee == nil && sc != nil {
		callee, _ = sc.Object().(*types.Func)
	}
	return callee != nil && name == commandName(callee.Name())
}

// oneParam reports whether a wrapper's key is one of its parameters, maybe
// under the namespace prefix a cache client adds to every key
// (buildKey(key), c.prefix+key, c.key(key)): the caller names the key.
func oneParam(fn *ssa.Function, k Key) bool {
	recv := fn.Signature.Recv() != nil
	params, other := 0, false
	k.leaves(func(l Key) {
		switch l.Kind {
		case Param:
			if !recv || l.N > 0 {
				params++
			}
		case Const, Global, Field, Deref:
		default:
			other = true
		}
	})
	return params == 1 && !other
}

// commandName folds the spellings of one command's method: Del, DelCtx,
// SetNX, Setnx.
func commandName(name string) string {
	return strings.TrimSuffix(strings.ToLower(name), "ctx")
}

// readFact describes a getter: a function whose one operation is a GET of a
// key from its parameters, whose reply it returns. A release that runs only
// when a comparison of its result says the caller owns the key is then seen
// to take two round trips, through an in-house client as through go-redis.
func readFact(fn *ssa.Function, ops []*Op) *WrapperFact {
	if len(ops) != 1 || ops[0].Kind != Read || !ops[0].Tmpl.Template() || !returnsReply(fn, ops[0]) {
		return nil
	}
	op := ops[0]
	f := &WrapperFact{Kind: Read, Key: op.Tmpl, Command: op.Command, ValueParam: -1, TTLParam: -1, Token: -1, Lease: -1, UnlockResult: -1}
	if op.Fact != nil {
		f.Command = op.Fact.Command
	}
	return f
}

// returnsReply reports whether every return of fn hands back the reply of
// op's call (the call itself, or its Result or Val) or a constant (the ""
// of a miss or an error), and one hands back the reply.
func returnsReply(fn *ssa.Function, op *Op) bool {
	call, ok := op.Instr.(*ssa.Call)
	if !ok {
		return false
	}
	seen := false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		v := ssautil.Unwrap(ret.Results[0])
		if _, ok := v.(*ssa.Const); ok {
			continue // "" on a miss or an error: the caller compares it too
		}
		if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
			v = ex.Tuple // the value of Result()
		}
		r, ok := v.(*ssa.Call)
		if !ok || r != call && !derivesReply(r, call) {
			return false
		}
		seen = true
	}
	return seen
}

// selfContained reports whether the function also does the opposite to the same
// key (acquires and releases it): a with-lock helper, not a half of a pair.
func selfContained(op, expire *Op, ops []*Op) bool {
	for _, o := range ops {
		if o.Key != op.Key || o == expire {
			continue
		}
		// A refresh beside an acquisition (go-zero's reentrant lock script
		// sets if absent or extends its own) is no opposite.
		if op.Kind == Acquire && o.Kind == Release || op.Kind != Acquire && o.Kind == Acquire {
			return true
		}
	}
	return false
}

// valueParam returns N when the value a wrapper stores is its Nth parameter,
// itself or encoded (string(json.Marshal(value))): the same for the same
// argument, so a constant argument is a constant value. Else -1.
func valueParam(v ssa.Value) int {
	for range 4 {
		if n := paramIndex(v); n >= 0 || v == nil {
			return n
		}
		switch x := ssautil.Unwrap(v).(type) {
		case *ssa.Convert:
			v = x.X
		case *ssa.Extract:
			v = x.Tuple
		case *ssa.Call:
			fn := x.Call.StaticCallee()
			if fn == nil || fn.Pkg == nil || !pureEncoders[fn.Pkg.Pkg.Path()+"."+fn.Name()] || len(x.Call.Args) != 1 {
				return -1
			}
			v = x.Call.Args[0]
		default:
			return -1
		}
	}
	return -1
}

// paramIndex returns N when v is exactly the Nth parameter, else -1.
func paramIndex(v ssa.Value) int {
	if v == nil {
		return -1
	}
	if k := keyValue(v); k.Kind == Param {
		return k.N
	}
	return -1
}

// pairByType pairs the functions that acquire and release the same field of
// one lock object: the methods of a lock type (Lock/Unlock, Acquire/Release),
// and package-level helpers that take the object as a parameter
// (releaseLock(l *RedisLock)). Its problems are reported where the type is
// declared, once, and its facts say so.
func pairByType(byRoot map[*ssa.Function][]*Op, local map[*types.Func]*WrapperFact) []*Lock {
	type method struct {
		obj   *types.Func
		op    *Op
		field string // the key below the lock object: ".key" of {p0}.key
	}
	byType := make(map[*types.TypeName][]method)
	for _, fn := range sortedRoots(byRoot) {
		obj, ok := fn.Object().(*types.Func)
		if !ok || local[obj] == nil {
			continue
		}
		tn, field := objectKey(fn, local[obj].Key)
		if tn == nil {
			continue
		}
		for _, op := range byRoot[fn] {
			if op.Key == local[obj].Key.String() && op.Kind == local[obj].Kind {
				byType[tn] = append(byType[tn], method{obj, op, field})
				break
			}
		}
	}
	names := make([]*types.TypeName, 0, len(byType))
	for tn := range byType {
		names = append(names, tn)
	}
	sort.Slice(names, func(i, j int) bool { return names[i].Pos() < names[j].Pos() })
	var locks []*Lock
	for _, tn := range names {
		methods := byType[tn]
		for _, a := range methods {
			// A type whose "acquire" ignores the result is a flag set and
			// cleared by two commands (Pause/Unpause), not a lock.
			if a.op.Kind != Acquire || !a.op.Outcome().Checked() {
				continue
			}
			l := &Lock{Acquire: a.op, Expire: splitExpire(a.op, byRoot[ssautil.Root(a.op.Fn)])}
			paired := []*types.Func{a.obj}
			for _, m := range methods {
				if m.field != a.field {
					continue
				}
				switch m.op.Kind {
				case Release:
					l.Releases = append(l.Releases, m.op)
				case Refresh:
					l.Refreshes = append(l.Refreshes, m.op)
				default:
					continue
				}
				paired = append(paired, m.obj)
			}
			if len(l.Releases) == 0 {
				continue
			}
			for _, obj := range paired {
				local[obj].Reported = true
			}
			locks = append(locks, l)
		}
	}
	return locks
}

// objectKey returns the named type of the parameter a key template reads a
// field of ({pN}.key), and the rest of the key: the lock object, whether it
// comes as the receiver or as another parameter. Nil for any other key.
func objectKey(fn *ssa.Function, key Key) (*types.TypeName, string) {
	n, rest, ok := key.Object()
	if !ok || n >= len(fn.Params) {
		return nil, ""
	}
	named, ok := types.Unalias(ssautil.Deref(fn.Params[n].Type())).(*types.Named)
	if !ok {
		return nil, ""
	}
	return named.Obj(), rest
}

// returnedLease finds the result of an acquiring wrapper that is a lease: a
// struct it makes and returns, with the acquired key in one of its fields,
// which the lease's Release reads back (lease.Release(ctx) deletes le.key),
// or a lock library's object it made and locked (field "": the object is
// the key, as its library's Release reads it).
func returnedLease(fn *ssa.Function, acquire *Op) (int, string) {
	key := acquire.Tmpl.String()
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for i, r := range ret.Results {
			if field, ok := keyFieldOf(acquire.Tmpl, r); ok {
				return i, field // the lock object it locked, made elsewhere
			}
			if acquire.Library && acquire.KeyExpr != nil && keyOf(r) == key {
				return i, "" // a library's lock object, made here and locked
			}
			alloc, ok := structAlloc(r)
			if !ok {
				continue
			}
			for _, ref := range *alloc.Referrers() {
				fa, ok := ref.(*ssa.FieldAddr)
				if !ok || fa.Referrers() == nil {
					continue
				}
				for _, use := range *fa.Referrers() {
					if st, ok := use.(*ssa.Store); ok && st.Addr == fa && keyOf(st.Val) == key {
						return i, fieldName(alloc.Type(), fa.Field)
					}
				}
			}
		}
	}
	return -1, ""
}

// structAlloc returns the composite literal a result is, by pointer or as
// a copy of its value (a lease struct returned as an interface).
func structAlloc(v ssa.Value) (*ssa.Alloc, bool) {
	v = ssautil.Unwrap(v)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	alloc, ok := v.(*ssa.Alloc)
	return alloc, ok
}

// keyFieldOf reports whether key is a field of the object v (*v.key), as
// when a helper locks a mutex a factory made and returns it: the field is
// what the object's own release reads. An object the caller passed in (the
// receiver returned for chaining) is the caller's already.
func keyFieldOf(key Key, v ssa.Value) (string, bool) {
	if key.Kind != Deref || key.Args[0].Kind != Field {
		return "", false
	}
	f, obj := key.Args[0], keyValue(v)
	return f.Text, obj.Kind != Param && f.Args[0].String() == obj.String()
}

// returnedUnlock finds the result of an acquiring wrapper that is a func
// value releasing the key it acquired, and that release: the helper that
// returns its unlock, unlock, err := lock(ctx, key).
func returnedUnlock(fn *ssa.Function, acquire *Op, ops []*Op) (int, *Op) {
	if acquire.Kind != Acquire {
		return -1, nil
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for i, r := range ret.Results {
			var lit *ssa.Function
			switch x := ssautil.Unwrap(r).(type) {
			case *ssa.MakeClosure:
				lit = x.Fn.(*ssa.Function)
			case *ssa.Function:
				lit = x
			}
			if lit == nil || lit.Parent() != fn {
				continue
			}
			for _, o := range ops {
				if o.Kind == Release && o.Key == acquire.Key && within(o.Fn, lit) {
					return i, o
				}
			}
		}
	}
	return -1, nil
}

// within reports whether fn is lit or a closure inside it.
func within(fn, lit *ssa.Function) bool {
	for ; fn != nil; fn = fn.Parent() {
		if fn == lit {
			return true
		}
	}
	return false
}

// linkInner points each call of a wrapper of this package at the operation
// inside the wrapper that its fact describes.
func linkInner(byRoot map[*ssa.Function][]*Op, local map[*types.Func]*WrapperFact) {
	source := make(map[*types.Func]*Op)
	byName := make(map[string]*Op) // the same, by full name
	for fn, ops := range byRoot {
		obj, ok := fn.Object().(*types.Func)
		if !ok || local[obj] == nil {
			continue
		}
		f := local[obj]
		for _, op := range ops {
			if op.Kind == f.Kind && op.Key == f.Key.String() {
				source[obj], byName[obj.FullName()] = op, op
				break
			}
		}
	}
	for _, ops := range byRoot {
		for _, op := range ops {
			inner := source[op.Via]
			if inner == nil && op.Fact != nil && op.Fact.ImplFunc != "" {
				// An interface method the link step resolved to a
				// wrapper of this package.
				inner = byName[op.Fact.ImplFunc]
			}
			for depth := 0; inner != nil && inner.Via != nil && depth < 8; depth++ {
				if inner.TwoStep && !inner.Fact.TwoStep {
					break // the comparison that makes two steps is here
				}
				if next := source[inner.Via]; next != nil {
					inner = next
				} else {
					break
				}
			}
			if op.Via != nil {
				op.Inner = inner
			}
		}
	}
}

// pairedElsewhere returns, for each wrapper of the package that the link
// step says another package pairs into a lock, and each of the helpers, the
// operation its fact describes.
func pairedElsewhere(byRoot map[*ssa.Function][]*Op, local map[*types.Func]*WrapperFact, helpers map[*types.Func]bool) []*Op {
	var out []*Op
	for _, fn := range sortedRoots(byRoot) {
		obj, ok := fn.Object().(*types.Func)
		if !ok || local[obj] == nil || !helpers[obj] && !link.Paired(obj.FullName()) {
			continue
		}
		f := local[obj]
		for _, op := range byRoot[fn] {
			if op.Kind == f.Kind && op.Key == f.Key.String() {
				out = append(out, op)
				break
			}
		}
	}
	return out
}
