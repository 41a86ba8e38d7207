package lockmodel

import "golang.org/x/tools/go/ssa"

// Region is the code that runs while a lock is held: from the acquisition to
// each release on the way, or to the function's end when the release is
// deferred, with the bodies of closures made in between (a transaction
// callback, a goroutine started under the lock) or called there.
type Region struct {
	spans  map[*ssa.BasicBlock]span // the instructions of each block that are in the region
	bodies map[*ssa.Function]bool   // closures wholly in the region
	// The same blocks and closures in the order they were reached, so that
	// whoever walks the region does it the same way every run.
	blocks []*ssa.BasicBlock
	funcs  []*ssa.Function
	// skip is the deferred closure that releases the lock: it runs as the
	// lock is let go, not under it.
	skip *ssa.Function
}

// span is the instructions [from, to) of a block.
type span struct{ from, to int }

// Region returns the lock's critical region, computed once.
func (l *Lock) Region() *Region {
	l.regionOnce.Do(func() { l.region = l.computeRegion() })
	return l.region
}

func (l *Lock) computeRegion() *Region {
	r := &Region{spans: make(map[*ssa.BasicBlock]span), bodies: make(map[*ssa.Function]bool)}
	start := l.Acquire.Instr.Block()
	if start == nil {
		return r
	}
	stops := make(map[ssa.Instruction]bool)
	// ends are where the lock is let go, or its release registered: the
	// region is the code on the way to one. A path that leaves without, as
	// the branch where the lock was not taken does, holds nothing.
	ends := make(map[ssa.Instruction]bool)
	for _, rel := range l.Releases {
		if d := deferral(l.Acquire.Fn, rel); d != nil {
			ends[d] = true
			if rel.Fn != l.Acquire.Fn {
				r.skip = outermost(l.Acquire.Fn, rel.Fn)
			}
		}
		switch {
		case rel.Deferred():
		case rel.Fn == l.Acquire.Fn:
			stops[rel.Instr] = true
		default:
			// A release inside a closure: calling the closure releases.
			for _, call := range closureCalls(l.Acquire.Fn, rel.Fn) {
				stops[call] = true
			}
		}
	}
	for instr := range stops {
		ends[instr] = true
	}
	type entry struct {
		b *ssa.BasicBlock
		i int
	}
	queue := []entry{{start, indexOf(start, l.Acquire.Instr) + 1}}
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		if seen, ok := r.spans[e.b]; ok && seen.from <= e.i {
			continue
		}
		sp := span{e.i, len(e.b.Instrs)}
		for i := e.i; i < len(e.b.Instrs); i++ {
			if stops[e.b.Instrs[i]] {
				sp.to = i
				break
			}
			r.addClosures(e.b.Instrs[i])
		}
		if _, ok := r.spans[e.b]; !ok {
			r.blocks = append(r.blocks, e.b)
		}
		r.spans[e.b] = sp
		if sp.to == len(e.b.Instrs) {
			for _, s := range e.b.Succs {
				queue = append(queue, entry{s, 0})
			}
		}
	}
	r.prune(ends)
	return r
}

// prune drops the blocks from which no end of the lock can be reached, and
// that no registered release covers.
func (r *Region) prune(ends map[ssa.Instruction]bool) {
	if len(ends) == 0 {
		return // released elsewhere (a lock type's Unlock): all of it is held
	}
	reaches := make(map[*ssa.BasicBlock]bool)
	for instr := range ends {
		b := instr.Block()
		if b == nil {
			continue
		}
		reaches[b] = true
		if _, deferred := instr.(*ssa.Defer); deferred {
			// Registered, the release stays so to the function's end: what
			// follows the defer on any path holds the lock, though a path
			// that skipped the defer (it was not taken) joins it.
			for queue := []*ssa.BasicBlock{b}; len(queue) > 0; queue = queue[1:] {
				for _, s := range queue[0].Succs {
					if _, in := r.spans[s]; in && !reaches[s] {
						reaches[s] = true
						queue = append(queue, s)
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, b := range r.blocks {
			if reaches[b] {
				continue
			}
			for _, s := range b.Succs {
				if reaches[s] {
					reaches[b], changed = true, true
					break
				}
			}
		}
	}
	kept := r.blocks[:0]
	for _, b := range r.blocks {
		if reaches[b] {
			kept = append(kept, b)
		} else {
			delete(r.spans, b)
		}
	}
	r.blocks = kept
}

// deferral returns the instruction of fn that registers the release rel to
// run at exit: its defer, or the defer of the closure that holds it; nil for
// a release that is not deferred.
func deferral(fn *ssa.Function, rel *Op) ssa.Instruction {
	if d, ok := rel.Instr.(*ssa.Defer); ok && rel.Fn == fn {
		return d
	}
	if rel.Fn == fn {
		return nil
	}
	lit := outermost(fn, rel.Fn)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			v := d.Call.Value
			if mc, ok := v.(*ssa.MakeClosure); ok {
				v = mc.Fn
			}
			if v == lit {
				return d
			}
		}
	}
	return nil
}

// outermost returns the closure declared in fn that holds inner.
func outermost(fn, inner *ssa.Function) *ssa.Function {
	for inner.Parent() != nil && inner.Parent() != fn {
		inner = inner.Parent()
	}
	return inner
}

// closureCalls returns the calls fn makes, not deferred, of the closure
// declared in fn that holds inner: `release := func() { m.Unlock() }` …
// `release()`.
func closureCalls(fn, inner *ssa.Function) []ssa.Instruction {
	for inner.Parent() != nil && inner.Parent() != fn {
		inner = inner.Parent()
	}
	if inner.Parent() != fn {
		return nil
	}
	var out []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			v := call.Call.Value
			if mc, ok := v.(*ssa.MakeClosure); ok {
				v = mc.Fn
			}
			if v == inner {
				out = append(out, call)
			}
		}
	}
	return out
}

// addClosures adds the bodies of the closures an instruction of the region
// makes, and of those it calls or hands to a call: a closure made before the
// acquisition and called under the lock, or a function literal that captures
// nothing (a plain function value, no MakeClosure) given as a callback.
func (r *Region) addClosures(instr ssa.Instruction) {
	if mc, ok := instr.(*ssa.MakeClosure); ok {
		r.addBody(mc.Fn.(*ssa.Function))
		return
	}
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return
	}
	c := call.Common()
	for _, v := range append([]ssa.Value{c.Value}, c.Args...) {
		if mc, ok := v.(*ssa.MakeClosure); ok {
			v = mc.Fn
		}
		if fn, ok := v.(*ssa.Function); ok && fn.Parent() != nil {
			r.addBody(fn)
		}
	}
}

func (r *Region) addBody(fn *ssa.Function) {
	if r.bodies[fn] || fn == r.skip {
		return
	}
	r.bodies[fn] = true
	r.funcs = append(r.funcs, fn)
	for _, anon := range fn.AnonFuncs {
		r.addBody(anon)
	}
}

// Instrs calls yield for each instruction in the region, block by block in
// the order the region reached them, then the closures' bodies.
func (r *Region) Instrs(yield func(ssa.Instruction) bool) {
	for _, b := range r.blocks {
		sp := r.spans[b]
		for _, instr := range b.Instrs[sp.from:sp.to] {
			if !yield(instr) {
				return
			}
		}
	}
	for _, fn := range r.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if !yield(instr) {
					return
				}
			}
		}
	}
}

// Contains reports whether instr runs under the lock.
func (r *Region) Contains(instr ssa.Instruction) bool {
	if r.bodies[instr.Parent()] {
		return true
	}
	sp, ok := r.spans[instr.Block()]
	i := indexOf(instr.Block(), instr)
	return ok && i >= sp.from && i < sp.to
}

func indexOf(b *ssa.BasicBlock, instr ssa.Instruction) int {
	for i, in := range b.Instrs {
		if in == instr {
			return i
		}
	}
	return len(b.Instrs)
}

// Own returns the lock's own commands after its acquisition: its releases,
// refreshes, fencing tokens, and the EXPIRE of a SETNX without TTL.
func (l *Lock) Own() map[ssa.Instruction]bool {
	own := make(map[ssa.Instruction]bool)
	for _, ops := range [][]*Op{l.Releases, l.Refreshes, l.Tokens} {
		for _, op := range ops {
			own[op.Instr] = true
		}
	}
	if l.Expire != nil {
		own[l.Expire.Instr] = true
	}
	return own
}
