package lockmodel

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// recognizer turns call instructions into lock operations.
type recognizer struct {
	consts  fieldConsts
	fixed   fixedFields
	inits   map[*ssa.Global]ssa.Value
	scripts *scriptSource
	fact    func(*types.Func) *WrapperFact
	ctor    func(*types.Func) *CtorFact
	command func(*types.Func) *CommandFact
	// forwards collects the functions found to pass their parameters on as a
	// raw command: func (r *Redis) Do(cmd string, args ...any) { conn.Do(cmd, args...) }.
	forwards map[*ssa.Function]*CommandFact
}

// ops returns the lock operations a call performs: none, one, or several (a DEL of
// several keys, a script that both sets and refreshes).
func (r *recognizer) ops(fn *ssa.Function, instr ssa.CallInstruction) []*Op {
	c := instr.Common()
	if op := cancelCall(fn, instr); op != nil {
		return []*Op{op}
	}
	if op := r.unlockCall(fn, instr); op != nil {
		return []*Op{op}
	}
	obj, recv, args := ssautil.Callee(c)
	if obj == nil || obj.Pkg() == nil {
		return nil
	}
	hb := opBuilder{fn: fn, instr: instr, client: recv}
	if helperOps(&hb, obj, recv, args) {
		return hb.ops
	}
	// The table wins over facts: a lock library's Obtain is itself a wrapper
	// around SET NX, but its lock object, not its key, is what callers hold.
	row := clients.Lookup(obj.Pkg().Path(), ssautil.RecvName(obj), obj.Name())
	if row == nil && c.IsInvoke() {
		row = clientMethod(obj)
	}
	if row == nil {
		if f := r.fact(obj); f != nil {
			all := append(recvArgs(recv), args...)
			ops := wrapperOps(fn, instr, obj, f, all)
			if f.ValueField != "" && len(all) > 0 {
				if v, ctor := r.constructed(all[0], f.ValueField); v != nil {
					for _, op := range ops {
						op.Value, op.Given = v, ctor
					}
				}
			}
			return ops
		}
		if f := r.command(obj); f != nil {
			return r.forwarded(fn, instr, recv, f, append(recvArgs(recv), args...))
		}
		return nil
	}
	args = ssautil.DropContexts(args)
	client := recv
	if row.Conn && len(args) > 0 {
		client, args = args[0], args[1:]
	}
	if row.Role == clients.Command && row.Shape == clients.Raw {
		r.noteForward(fn, args)
	}
	b := opBuilder{fn: fn, instr: instr, client: client, nilIsError: row.NilIsError,
		queued: row.Queued || isPipeline(client)}
	if sig := c.Signature(); sig.Variadic() && len(args) > 0 {
		elems, ok := ssautil.SliceElems(args[len(args)-1])
		if !ok {
			spreadRelease(&b, row, args)
			return b.ops
		}
		args = append(args[:len(args)-1:len(args)-1], elems...)
	}
	if libraryOps(&b, row, obj, recv, args) {
		return b.ops
	}
	if row.Role == clients.Command {
		if words, label, ok := r.words(row, recv, args); ok {
			r.readCommand(&b, words, label)
		}
	}
	return b.ops
}

// noteForward records fn as a command wrapper when it passes its own
// parameters on as the command name and arguments.
func (r *recognizer) noteForward(fn *ssa.Function, args []ssa.Value) {
	if len(args) == 0 || fn.Parent() != nil {
		return
	}
	f := &CommandFact{Name: -1, Args: paramIndex(args[len(args)-1])}
	if len(args) == 2 {
		f.Name = paramIndex(args[0])
		if f.Name < 0 {
			return
		}
	}
	if f.Args >= 0 {
		r.forwards[fn] = f
	}
}

// forwarded reads a call of a command wrapper as the command it sends.
func (r *recognizer) forwarded(fn *ssa.Function, instr ssa.CallInstruction, recv ssa.Value, f *CommandFact, args []ssa.Value) []*Op {
	if f.Args >= len(args) || f.Name >= len(args) {
		return nil
	}
	words, ok := ssautil.SliceElems(args[f.Args])
	if !ok {
		return nil
	}
	if f.Name >= 0 {
		words = append([]ssa.Value{args[f.Name]}, words...)
	}
	b := opBuilder{fn: fn, instr: instr, client: recv}
	r.readCommand(&b, words, "")
	return b.ops
}

func recvArgs(recv ssa.Value) []ssa.Value {
	if recv == nil {
		return nil
	}
	return []ssa.Value{recv}
}

// isPipeline reports whether a go-redis command is sent on a pipeline or
// transaction (the Pipeliner in a Pipelined or TxPipelined callback).
func isPipeline(client ssa.Value) bool {
	if client == nil {
		return false
	}
	n, ok := ssautil.Deref(client.Type()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && clients.IsClient(n.Obj().Pkg().Path()) && clients.Pipelines[n.Obj().Name()]
}

// newScript follows a script object back to the NewScript call that built it,
// directly or through a package-level variable, and returns its source and, for
// redigo, its key count (-1 when not given).
func (r *recognizer) newScript(v ssa.Value) (src string, keyCount int, ok bool) {
	for range 4 {
		if load, isLoad := v.(*ssa.UnOp); isLoad {
			if g, isGlobal := load.X.(*ssa.Global); isGlobal {
				v = r.inits[g]
				continue
			}
		}
		break
	}
	call, isCall := v.(*ssa.Call)
	if !isCall {
		return "", 0, false
	}
	obj, _, args := ssautil.Callee(call.Common())
	if obj == nil || obj.Pkg() == nil {
		return "", 0, false
	}
	row := clients.Lookup(obj.Pkg().Path(), "", obj.Name())
	if row == nil || row.Role != clients.NewScript || len(args) == 0 {
		return "", 0, false
	}
	keyCount = -1
	if len(args) == 2 {
		n, isConst := constInt(args[0])
		if !isConst {
			return "", 0, false
		}
		keyCount = n
	}
	src, ok = r.scripts.text(args[len(args)-1])
	return src, keyCount, ok
}

// opBuilder collects the operations of one call.
type opBuilder struct {
	fn         *ssa.Function
	instr      ssa.CallInstruction
	client     ssa.Value
	nilIsError bool
	queued     bool
	ops        []*Op
}

func (b *opBuilder) op(kind Kind, cmd string, key ssa.Value) *Op {
	op := &Op{
		Kind: kind, Instr: b.instr, Fn: b.fn, KeyExpr: key,
		Command: cmd, Client: b.client, NilIsError: b.nilIsError, Queued: b.queued,
	}
	op.setKey(keyValue(key))
	b.ops = append(b.ops, op)
	return op
}

func (b *opBuilder) acquire(cmd string, key, value ssa.Value, ttl TTL, ttlExpr ssa.Value) {
	op := b.op(Acquire, cmd, key)
	op.Value, op.TTL, op.TTLExpr = value, ttl, ttlExpr
}

func (b *opBuilder) release(cmd string, key, owner ssa.Value) {
	b.checked(Release, cmd, key, owner, false)
}

func (b *opBuilder) checked(kind Kind, cmd string, key, owner ssa.Value, script bool) {
	op := b.op(kind, cmd, key)
	op.Value, op.Checked, op.Script = owner, owner != nil, script
}

// expire is a refresh, or a release when the TTL is zero (EXPIRE k 0 deletes k).
func (b *opBuilder) expire(cmd string, key, ttl ssa.Value) {
	if isZeroConst(ttl) {
		b.release(cmd+" 0", key, nil)
		return
	}
	b.checked(Refresh, cmd, key, nil, false)
}

// scriptOps turns what a Lua script does to KEYS[1] into operations.
func (b *opBuilder) scriptOps(src string, keys, args []ssa.Value) {
	if len(keys) == 0 {
		return
	}
	s := lua.Classify(src)
	argv := func(i int) ssa.Value {
		if i >= 1 && i <= len(args) {
			return args[i-1]
		}
		return nil
	}
	b.nilIsError = true // whatever a script returns, code that looks at it decides
	if s.SetIfAbsent {
		ttl := TTLNone
		if s.SetTTL {
			ttl = TTLSet
		}
		op := b.op(Acquire, "script", keys[0])
		op.Value, op.TTL, op.Script, op.Token, op.Grant = argv(s.ValueArg), ttl, true, s.Token, s.Token
	}
	switch {
	case s.CompareAndDelete:
		b.checked(Release, "script", keys[0], argv(s.OwnerArg), true)
	case s.Deletes:
		b.checked(Release, "script", keys[0], nil, true)
	}
	switch {
	case s.CompareAndExpire:
		b.checked(Refresh, "script", keys[0], argv(s.OwnerArg), true)
	case s.Expires && !s.SetIfAbsent:
		b.checked(Refresh, "script", keys[0], nil, true)
	}
}

// spreadRelease reads a DEL of the keys a wrapper takes as its own variadic
// parameter, Del(ctx, keys ...string) { rdb.Del(ctx, keys...) }: a release of
// each key its callers pass.
func spreadRelease(b *opBuilder, row *clients.Func, args []ssa.Value) {
	if row.Role != clients.Command || row.Shape != clients.Words || row.Command != "DEL" && row.Command != "UNLINK" || len(args) != 1 {
		return
	}
	if p, ok := args[0].(*ssa.Parameter); ok && p.Parent() == b.fn && paramIndex(p) >= 0 {
		b.release(row.Command, p, nil)
		b.ops[len(b.ops)-1].Spread = true
	}
}

// wrapperOps reads a call of a wrapper known by its fact: one operation, or
// one per key for a wrapper that spreads its variadic keys.
func wrapperOps(fn *ssa.Function, instr ssa.CallInstruction, obj *types.Func, f *WrapperFact, args []ssa.Value) []*Op {
	if !f.Spread {
		return []*Op{wrapperOp(fn, instr, obj, f, args)}
	}
	n := f.Key.N
	if f.Key.Kind != Param || n >= len(args) {
		return nil
	}
	keys, ok := ssautil.SliceElems(args[n])
	if !ok {
		// Handed on to another spreading wrapper's parameter.
		op := wrapperOp(fn, instr, obj, f, args)
		op.Spread, op.KeyExpr = true, args[n]
		return []*Op{op}
	}
	var out []*Op
	for _, k := range keys {
		op := wrapperOp(fn, instr, obj, f, args)
		op.setKey(keyValue(k))
		op.KeyExpr = k
		out = append(out, op)
	}
	return out
}

func wrapperOp(fn *ssa.Function, instr ssa.CallInstruction, obj *types.Func, f *WrapperFact, args []ssa.Value) *Op {
	op := &Op{
		Kind: f.Kind, Instr: instr, Fn: fn,
		Command: obj.Name(), Checked: f.Checked, TwoStep: f.TwoStep, TTL: f.TTL, NilIsError: true,
		Via: obj, Fact: f, Token: f.Token >= 0, Grant: f.Grant, TokenResult: f.Token,
	}
	op.setKey(f.Key.Instantiate(args))
	if unlock := leaseOf(instr, f.UnlockResult); f.Unlock != nil && unlock != nil {
		// Keyed as the func that releases it, which the caller calls.
		op.setKey(keyValue(unlock))
	}
	switch lease := leaseOf(instr, f.Lease); {
	case lease != nil && f.LeaseKey == "":
		// A library's lock object: keyed as the object its Release takes.
		op.setKey(keyValue(lease))
		op.KeyExpr, op.Library = lease, true
	case lease != nil:
		// Keyed as the lease's field its Release reads: lease.key.*
		op.setKey(Key{Kind: Deref, Args: []Key{{Kind: Field, Text: f.LeaseKey, Args: []Key{keyValue(lease)}}}})
	}
	if f.ValueParam >= 0 && f.ValueParam < len(args) {
		op.Value = args[f.ValueParam]
	}
	if f.TTLParam >= 0 && f.TTLParam < len(args) {
		op.TTLExpr = args[f.TTLParam]
		if isZeroConst(op.TTLExpr) {
			op.TTL = TTLNone
		}
	}
	return op
}

// leaseOf returns the value of result i of the call, the lease an acquiring
// wrapper returned; nil when it has none or the code drops it.
func leaseOf(instr ssa.CallInstruction, i int) ssa.Value {
	call, ok := instr.(*ssa.Call)
	if !ok || i < 0 {
		return nil
	}
	if call.Call.Signature().Results().Len() == 1 {
		return call
	}
	if ex := ssautil.Extract(call, i); ex != nil {
		return ex
	}
	return nil
}

// unlockCall recognises a call of the func an acquiring wrapper returned to
// release the lock with: unlock() after unlock, err := lock(ctx, key).
func (r *recognizer) unlockCall(fn *ssa.Function, instr ssa.CallInstruction) *Op {
	v := instr.Common().Value
	call, index := v, 0
	if ex, ok := v.(*ssa.Extract); ok {
		call, index = ex.Tuple, ex.Index
	}
	c, ok := call.(*ssa.Call)
	if !ok || c.Call.IsInvoke() {
		return nil
	}
	obj, _, _ := ssautil.Callee(c.Common())
	if obj == nil || obj.Pkg() == nil {
		return nil
	}
	f := r.fact(obj)
	if f == nil || f.Unlock == nil || f.UnlockResult != index {
		return nil
	}
	op := &Op{Kind: Release, Instr: instr, Fn: fn, KeyExpr: v, Command: f.Unlock.Command,
		Checked: f.Unlock.Checked, TwoStep: f.Unlock.TwoStep, NilIsError: true, Via: obj, Fact: f.Unlock}
	op.setKey(keyValue(v))
	return op
}

// clientMethod reads a method of an in-house interface in front of a Redis
// client, type Cache interface { SetNX(…) *redis.BoolCmd }, as the client's
// method of that name: its result, a command object or reply of the client's
// own, says which client implements it.
func clientMethod(m *types.Func) *clients.Func {
	res := m.Type().(*types.Signature).Results()
	for i := range res.Len() {
		if n, ok := types.Unalias(ssautil.Deref(res.At(i).Type())).(*types.Named); ok && n.Obj().Pkg() != nil && clients.IsClient(n.Obj().Pkg().Path()) {
			return clients.Lookup(n.Obj().Pkg().Path(), "", m.Name())
		}
	}
	return nil
}
