package lockmodel

import (
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/link"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// judgedInHelpers returns, when the command links the program, the lock
// helpers paired by their names, and marks the calls made through them: what
// a helper decides alone (a constant value, a plain DEL) is reported in it,
// once, called or not, and not at its calls. Hosts that see one package at a
// time report it at the calls, for a helper's calls in other packages cannot
// know that its own package is analysed too.
func judgedInHelpers(byRoot map[*ssa.Function][]*Op, local map[*types.Func]*WrapperFact) map[*types.Func]bool {
	if !link.Linked() {
		return nil
	}
	helpers := make(map[*types.Func]bool)
	for _, fn := range namedPairs(byRoot, local) {
		helpers[fn] = true
	}
	for _, ops := range byRoot {
		for _, op := range ops {
			op.viaHelper = helpers[op.Via]
		}
	}
	return helpers
}

// namedPairs returns the lock helpers paired by their names, a lock and its
// unlock that both take the key from their caller: Lock(ctx, key, ttl) and
// Unlock(ctx, key) on one type, TryLock(key) and UnLock(key) in one package.
func namedPairs(byRoot map[*ssa.Function][]*Op, local map[*types.Func]*WrapperFact) []*types.Func {
	acquires := make(map[string][]*types.Func) // by home and key
	releases := make(map[string][]*types.Func)
	var order []string
	for _, fn := range sortedRoots(byRoot) {
		obj, ok := fn.Object().(*types.Func)
		f := local[obj]
		if !ok || f == nil || f.Reported || f.Forwards || !oneParam(fn, f.Key) {
			continue
		}
		var into map[string][]*types.Func
		switch name := strings.ToLower(obj.Name()); {
		case f.Kind == Acquire && lockName(name) && !f.Drops:
			into = acquires // one that drops the result is a flag, as pairByType says
		case f.Kind == Release && unlockName(name):
			into = releases
		default:
			continue
		}
		id := ssautil.RecvName(obj) + "." + byParamName(fn, f.Key)
		if len(acquires[id])+len(releases[id]) == 0 {
			order = append(order, id)
		}
		into[id] = append(into[id], obj)
	}
	var out []*types.Func
	for _, id := range order {
		if len(acquires[id]) > 0 && len(releases[id]) > 0 {
			out = append(out, acquires[id]...)
			out = append(out, releases[id]...)
		}
	}
	return out
}

func lockName(name string) bool {
	return !unlockName(name) && (strings.Contains(name, "lock") || strings.HasPrefix(name, "acquire"))
}

func unlockName(name string) bool {
	return strings.Contains(name, "unlock") || strings.HasPrefix(name, "release")
}

// byParamName renders a key template with parameters named rather than
// numbered, so that Lock(ctx, key, ttl) and Unlock(key) read the same key.
func byParamName(fn *ssa.Function, k Key) string {
	pairs := make([]string, 0, 2*len(fn.Params))
	for i, p := range fn.Params {
		pairs = append(pairs, "{p"+strconv.Itoa(i)+"}", "{"+p.Name()+"}")
	}
	return strings.NewReplacer(pairs...).Replace(k.String())
}
