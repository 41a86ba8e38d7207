package lockmodel

import "golang.org/x/tools/go/ssa"

// renewedElsewhere returns the refreshes of a fixed key (constants and
// package-level names only) that some function of the package acquires,
// outside any Lock: a leader's lease taken in one method and renewed on a
// ticker in another, never released, expiring when its holder dies.
//
//	func (c *Cluster) lockMaster() (bool, error) { return cache.SetNX(masterKey, c.id, ttl) }
//	func (c *Cluster) renew() error { _, err := cache.Expire(masterKey, ttl); return err }
//
// The acquisition's result must be tested and its TTL short of a marker's:
// a key that nothing tests, or that outlives any pause, is no lease.
func renewedElsewhere(byRoot map[*ssa.Function][]*Op, locks []*Lock) []*Op {
	taken := make(map[*Op]bool)
	for _, l := range locks {
		for _, op := range l.Refreshes {
			taken[op] = true
		}
		if l.Expire != nil {
			taken[l.Expire] = true
		}
	}
	roots := sortedRoots(byRoot)
	acquired := make(map[string]bool)
	for _, root := range roots {
		for _, op := range byRoot[root] {
			if op.Kind == Acquire && fixedKey(op.Tmpl) && op.TTL == TTLSet && !longTTL(op.TTLExpr) && op.Outcome().Checked() {
				acquired[op.Key] = true
			}
		}
	}
	var out []*Op
	for _, root := range roots {
		for _, op := range byRoot[root] {
			if op.Kind == Refresh && acquired[op.Key] && !taken[op] && !op.TwoStep && !isSplitExpire(op, byRoot[root]) {
				out = append(out, op)
			}
		}
	}
	return out
}

// isSplitExpire reports whether op gives a SETNX of its own function its TTL.
func isSplitExpire(op *Op, ops []*Op) bool {
	for _, a := range ops {
		if a.Kind == Acquire && splitExpire(a, ops) == op {
			return true
		}
	}
	return false
}

// fixedKey reports whether k is made of constants and package-level names
// and variables only, joined or passed to a key builder: the same key in
// every function that names it.
func fixedKey(k Key) bool {
	switch k.Kind {
	case Const, Global:
		return true
	case Deref:
		// A package variable's value: set once, as a constant is.
		return k.Args[0].Kind == Global
	case BinOp, Call:
		for _, a := range k.Args {
			if !fixedKey(a) {
				return false
			}
		}
		return len(k.Args) > 0
	}
	return false
}
