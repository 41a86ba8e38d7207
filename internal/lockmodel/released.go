package lockmodel

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// releasedElsewhere returns the releases of a fixed key that another
// function of the package acquires, outside any Lock: a job lock taken in
// Start and deleted in Cancel, or by an admin's force-unlock.
//
//	func (t *Task) Start() { conn.Do("SET", taskLock, now, "NX") … }
//	func (t *Task) Cancel() { conn.Do("DEL", taskLock) }
//
// The acquisition's result must be tested: a key that nothing tests is a
// flag, not a lock.
func releasedElsewhere(byRoot map[*ssa.Function][]*Op, locks []*Lock, ownerChecked []*Op) []*Op {
	taken := make(map[*Op]bool)
	for _, l := range locks {
		for _, op := range l.Releases {
			taken[op] = true
		}
	}
	for _, op := range ownerChecked {
		taken[op] = true
	}
	roots := sortedRoots(byRoot)
	acquiredIn := make(map[string]map[*ssa.Function]bool)
	for _, root := range roots {
		for _, op := range byRoot[root] {
			if op.Kind == Acquire && fixedKey(op.Tmpl) && op.Outcome().Checked() {
				if acquiredIn[op.Key] == nil {
					acquiredIn[op.Key] = make(map[*ssa.Function]bool)
				}
				acquiredIn[op.Key][root] = true
			}
		}
	}
	var out []*Op
	for _, root := range roots {
		for _, op := range byRoot[root] {
			// A release beside the acquisition, outside its Lock, is the
			// Lock's to judge (a takeover, a failure path).
			if in := acquiredIn[op.Key]; op.Kind == Release && in != nil && !in[root] && !taken[op] {
				out = append(out, op)
			}
		}
	}
	return out
}

// takenElsewhere returns, as locks with no region in sight, the
// acquisitions outside any Lock of a fixed key that Released pairs with a
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
		releases[op.Key] = append(releases[op.Key], op)
	}
	var out []*Lock
	for _, root := range sortedRoots(byRoot) {
		for _, op := range byRoot[root] {
			if op.Kind != Acquire || inLock[op] || len(releases[op.Key]) == 0 || !fixedKey(op.Tmpl) || !op.Outcome().Checked() {
				continue
			}
			var rs []*Op
			for _, r := range releases[op.Key] {
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
