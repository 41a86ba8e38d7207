package lockmodel

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// In-house lock helpers whose implementation lockvet cannot see (a lock service
// behind RPC, a library not in the client table) are named by the user. Their
// calls are read like a lock library's: the lock is the returned lease, the
// receiver, or the first argument, and ownership is taken as checked.
var acquireFuncs, releaseFuncs = funcNames{}, funcNames{}

func init() {
	Analyzer.Flags.Var(acquireFuncs, "acquire",
		"comma-separated `functions` that take a TTL lock, as pkg/path.Func or pkg/path.Type.Method")
	Analyzer.Flags.Var(releaseFuncs, "release",
		"comma-separated `functions` that release a lock taken by an -acquire function")
}

// funcNames is a set of qualified function names.
type funcNames map[string]bool

func (s funcNames) String() string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

func (s funcNames) Set(list string) error {
	clear(s)
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		norm := strings.NewReplacer("(", "", ")", "", "*", "").Replace(name)
		slash := strings.LastIndex(norm, "/")
		if dot := strings.Index(norm[slash+1:], "."); dot <= 0 || strings.HasSuffix(norm, ".") || strings.Contains(norm, " ") {
			return fmt.Errorf("bad function name %q: want pkg/path.Func or pkg/path.Type.Method", name)
		}
		s[norm] = true
	}
	return nil
}

// qualifiedName renders obj the way funcNames stores names.
func qualifiedName(obj *types.Func) string {
	if recv := ssautil.RecvName(obj); recv != "" {
		return obj.Pkg().Path() + "." + recv + "." + obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// helperOps reads a call of a user-named lock helper.
func helperOps(b *opBuilder, obj *types.Func, recv ssa.Value, args []ssa.Value) bool {
	if len(acquireFuncs) == 0 && len(releaseFuncs) == 0 {
		return false
	}
	name := qualifiedName(obj)
	args = ssautil.DropContexts(args)
	var op *Op
	switch {
	case acquireFuncs[name]:
		if returnsLease(obj) {
			op = resultOp(b, Acquire, obj.Name(), 0)
		} else {
			op = b.op(Acquire, obj.Name(), lockObject(recv, args))
		}
	case releaseFuncs[name]:
		op = b.op(Release, obj.Name(), lockObject(recv, args))
		op.Checked = true
	default:
		return false
	}
	op.Library, op.NilIsError = true, true
	return true
}

// returnsLease reports whether a helper's first result is the lock itself
// rather than an error or an acquired flag.
func returnsLease(obj *types.Func) bool {
	res := obj.Type().(*types.Signature).Results()
	if res.Len() == 0 {
		return false
	}
	t := res.At(0).Type()
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	basic, ok := t.Underlying().(*types.Basic)
	return !ok || basic.Info()&types.IsBoolean == 0
}

func lockObject(recv ssa.Value, args []ssa.Value) ssa.Value {
	if recv != nil {
		return recv
	}
	if len(args) > 0 {
		return args[0]
	}
	return nil
}

// hasHelpers reports whether the user named lock helpers in pkg, which makes
// its importers worth analysing.
func hasHelpers(pkg *types.Package) bool {
	for _, set := range []funcNames{acquireFuncs, releaseFuncs} {
		for name := range set {
			if strings.HasPrefix(name, pkg.Path()+".") {
				return true
			}
		}
	}
	return false
}
