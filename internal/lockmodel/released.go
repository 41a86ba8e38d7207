package lockmodel

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// releasedElsewhere returns the releases of a key (see sharedKey) that
// another function of the package acquires, outside any Lock and not judged
// already: a job lock taken in Start and deleted in Cancel, or by an admin's
// force-unlock.
//
//	func (t *Task) Start() { conn.Do("SET", taskLock, now, "NX") … }
//	func (t *Task) Cancel() { conn.Do("DEL", taskLock) }
//
// The acquisition's result must be tested: a key that nothing tests is a
// flag, not a lock.
func releasedElsewhere(byRoot map[*ssa.Function][]*Op, locks []*Lock, judged []*Op) []*Op {
	taken := make(map[*Op]bool)
	for _, l := range locks {
		for _, op := range l.Releases {
			taken[op] = true
		}
	}
	for _, op := range judged {
		taken[op] = true
	}
	roots := sortedRoots(byRoot)
	acquiredIn := make(map[string]map[*ssa.Function]bool)
	for _, root := range roots {
		for _, op := range byRoot[root] {
			if k, ok := sharedKey(op); ok && op.Kind == Acquire && op.Outcome().Checked() {
				if acquiredIn[k] == nil {
					acquiredIn[k] = make(map[*ssa.Function]bool)
				}
				acquiredIn[k][root] = true
			}
		}
	}
	var out []*Op
	for _, root := range roots {
		for _, op := range byRoot[root] {
			// A release beside the acquisition, outside its Lock, is the
			// Lock's to judge (a takeover, a failure path).
			k, ok := sharedKey(op)
			if in := acquiredIn[k]; ok && op.Kind == Release && in != nil && !in[root] && !taken[op] {
				out = append(out, op)
			}
		}
	}
	return out
}

// takenElsewhere returns, as locks with no region in sight, the
// acquisitions outside any Lock of a key that Released pairs with a
// release in another function: a job's acquireLock and its releaseLock,
// which tick calls around the work. Their commands are judged as any lock's
// (a constant value, no TTL); the work between them is not.
func takenElsewhere(byRoot map[*ssa.Function][]*Op, locks []*Lock, released []*Op) []*Lock {
	inLock := make(map[*Op]bool)
	for _, l := range locks {
		inLock[l.Acquire] = true
	}
	releases := make(map[string][]*Op)
	for _, op := range released {
		k, _ := sharedKey(op)
		releases[k] = append(releases[k], op)
	}
	var out []*Lock
	for _, root := range sortedRoots(byRoot) {
		for _, op := range byRoot[root] {
			k, ok := sharedKey(op)
			if !ok || op.Kind != Acquire || inLock[op] || len(releases[k]) == 0 || !op.Outcome().Checked() {
				continue
			}
			var rs []*Op
			for _, r := range releases[k] {
				if ssautil.Root(r.Fn) != root {
					rs = append(rs, r)
				}
			}
			if len(rs) > 0 {
				out = append(out, &Lock{Acquire: op, Releases: rs, Expire: splitExpire(op, byRoot[root])})
			}
		}
	}
	return out
}

// sharedKey returns a key that names the same Redis key in every function of
// the package: a fixed one, or one built by the same expression from a field
// of a parameter of the same type, as a device lock taken in one function
// and deleted in another from the context both are given. A bare parameter
// (TryLock(name), createShortURL(slug)) is not enough: its callers decide
// what it names; nor is a receiver's field.
//
//	func lockDevice(c *jobContext) { SetNX(c.ctx, devKey(c.Session.DevEUI), …) }
//	func lockGateway(c *jobContext) { … Del(c.ctx, devKey(c.Session.DevEUI)) }
func sharedKey(op *Op) (string, bool) {
	if fixedKey(op.Tmpl) {
		return op.Key, true
	}
	k, params, consts := typedParams(op.Tmpl, op.Fn, false)
	if params == 0 || consts == 0 {
		return "", false
	}
	return k.String(), true
}

// typedParams returns k with each parameter written as its type, and how
// many parameters' fields and constants it is built from; params is 0 when
// k holds anything else (a bare parameter, a method of an interface, a call
// that draws a new value).
func typedParams(k Key, fn *ssa.Function, inField bool) (out Key, params, consts int) {
	switch k.Kind {
	case Const, Global:
		return k, 0, 1
	case Param:
		// A receiver's key field is its lock object's, which pairs its
		// own methods (pairByType).
		if !inField || fn == nil || k.N >= len(fn.Params) || k.N == 0 && fn.Signature.Recv() != nil {
			return k, 0, 0
		}
		return Key{Kind: Global, Text: "(" + fn.Params[k.N].Type().String() + ")"}, 1, 0
	case Field, Deref, BinOp, Call:
		if k.Kind == Call && k.Leaf {
			return k, 0, 0
		}
		out = k
		out.Args = make([]Key, len(k.Args))
		for i, a := range k.Args {
			a, p, c := typedParams(a, fn, k.Kind == Field || inField && k.Kind == Deref)
			if p == 0 && c == 0 {
				return k, 0, 0
			}
			out.Args[i], params, consts = a, params+p, consts+c
		}
		return out, params, consts
	}
	return k, 0, 0
}
