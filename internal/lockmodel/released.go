package lockmodel

import "golang.org/x/tools/go/ssa"

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
