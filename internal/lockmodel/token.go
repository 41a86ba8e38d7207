package lockmodel

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// TokenSource is where a value a write uses as its fencing token comes from.
// Only a token the lock service issues atomically with the grant fences
// anything (Kleppmann, 2016): the INCR inside the script that takes the
// lock, etcd's revision of the lock, a wrapper's result that carries one.
type TokenSource int

const (
	// SourceUnknown: lockvet cannot tell (a struct field, a map, a call it
	// does not know); judged as a token.
	SourceUnknown TokenSource = iota
	// SourceGrant: issued atomically with this lock's grant.
	SourceGrant
	// SourceSeparate: an INCR in a round trip of its own. A holder that
	// pauses before it draws a larger token than its successor.
	SourceSeparate
	// SourceLockValue: the value the lock stores, an owner id.
	SourceLockValue
	// SourceFresh: made up on the spot: a UUID, a timestamp, a random
	// number, a constant.
	SourceFresh
	// SourceCaller: a parameter of the function that takes the lock, which
	// cannot have come from this grant.
	SourceCaller
)

// Source tells where v, as a write under the lock sees it, comes from, and
// names the source for a message ("uuid.NewString", "id").
func (l *Lock) Source(v ssa.Value) (TokenSource, string) {
	if v == nil {
		return SourceUnknown, ""
	}
	root, index := tokenRoot(v)
	if call, ok := root.(ssa.CallInstruction); ok {
		for _, op := range l.Tokens {
			if op.Instr != call || index >= 0 && index != op.TokenResult {
				continue
			}
			if op.Grant {
				return SourceGrant, op.Command
			}
			return SourceSeparate, op.Command
		}
	}
	if l.isValue(root) {
		return SourceLockValue, "the lock's value"
	}
	switch x := root.(type) {
	case *ssa.Const:
		return SourceFresh, "a constant"
	case *ssa.Parameter:
		if x.Parent() == ssautil.Root(l.Acquire.Fn) {
			return SourceCaller, x.Name()
		}
	case *ssa.Call:
		obj, _, _ := ssautil.Callee(x.Common())
		if obj == nil || obj.Pkg() == nil {
			break
		}
		if isIncr(x) {
			return SourceSeparate, strings.ToUpper(obj.Name())
		}
		if clients.NotToken(obj.Pkg().Path()) {
			return SourceFresh, displayName(obj)
		}
	}
	return SourceUnknown, ""
}

// isValue reports whether v is the value the lock stores: the same value, or
// the same field or variable read again. Two calls are two values, whatever
// they render as: two uuid.NewString() differ.
func (l *Lock) isValue(v ssa.Value) bool {
	stored := l.Acquire.Value
	if stored == nil {
		return false
	}
	if v == ssautil.Unwrap(stored) {
		return true
	}
	_, isCall := v.(*ssa.Call)
	return !isCall && keyOf(v) == keyOf(stored)
}

// tokenRoot follows v back through what reads a value without changing it
// (conversions, reply readers, redigo's converters, a Revision field,
// strconv's formatting) to where it was made, and says which result of that
// call it is (-1 when the call has one).
func tokenRoot(v ssa.Value) (ssa.Value, int) {
	index := -1
	for range 16 {
		v = ssautil.Unwrap(ssautil.Assigned(v))
		switch x := v.(type) {
		case *ssa.FreeVar:
			b := ssautil.FreeVarBinding(x)
			if b == nil {
				return v, index
			}
			v = b
		case *ssa.Extract:
			index, v = x.Index, x.Tuple
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return v, index
			}
			v = x.X
		case *ssa.FieldAddr:
			if fieldName(x.X.Type(), x.Field) != "Revision" {
				return v, index
			}
			v = x.X
		case *ssa.Field:
			if fieldName(x.X.Type(), x.Field) != "Revision" {
				return v, index
			}
			v = x.X
		case *ssa.Call:
			next := readsValue(x)
			if next == nil {
				return v, index
			}
			v, index = next, -1
		default:
			return v, index
		}
	}
	return v, index
}

// readsValue returns the value a call only reads or reformats: the command
// object of Val or Int64, the reply a redigo converter takes, the header of
// GetRevision, the integer strconv.FormatInt formats. Nil for other calls.
func readsValue(call *ssa.Call) ssa.Value {
	obj, recv, args := ssautil.Callee(call.Common())
	if obj == nil || obj.Pkg() == nil {
		return nil
	}
	path := obj.Pkg().Path()
	switch {
	case clients.IsClient(path) && recv != nil && obj.Name() != "Err" && strings.HasSuffix(ssautil.RecvName(obj), "Cmd"):
		return recv
	case clients.IsClient(path) && len(args) > 0:
		if row := clients.Lookup(path, "", obj.Name()); row != nil && row.Role == clients.Convert {
			return args[0]
		}
	case obj.Name() == "GetRevision" && recv != nil:
		return recv
	case path == "strconv" && len(args) > 0 && (strings.HasPrefix(obj.Name(), "Format") || obj.Name() == "Itoa"):
		return args[0]
	case path == "fmt" && obj.Name() == "Sprint" && len(args) == 1:
		if elems, ok := ssautil.SliceElems(args[0]); ok && len(elems) == 1 {
			return elems[0]
		}
	}
	return nil
}

// isIncr reports whether call sends INCR or INCRBY on a Redis client.
func isIncr(call *ssa.Call) bool {
	obj, _, args := ssautil.Callee(call.Common())
	if obj == nil || obj.Pkg() == nil || !clients.IsClient(obj.Pkg().Path()) {
		return false
	}
	row := clients.Lookup(obj.Pkg().Path(), ssautil.RecvName(obj), obj.Name())
	switch {
	case row == nil || row.Role != clients.Command:
		return false
	case row.Shape != clients.Raw:
		return row.Command == "INCR" || row.Command == "INCRBY"
	default:
		for _, a := range ssautil.DropContexts(args) {
			if name, ok := ssautil.ConstString(a); ok {
				return strings.EqualFold(name, "INCR") || strings.EqualFold(name, "INCRBY")
			}
			if elems, ok := ssautil.SliceElems(a); ok && len(elems) > 0 {
				name, _ := ssautil.ConstString(elems[0])
				return strings.EqualFold(name, "INCR") || strings.EqualFold(name, "INCRBY")
			}
		}
	}
	return false
}

// returnedToken says which result of the wrapper fn carries the token one of
// its operations draws, and whether it is issued with the grant.
func returnedToken(fn *ssa.Function, acquire *Op, ops []*Op) (int, bool) {
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for i, r := range ret.Results {
			root, index := tokenRoot(r)
			call, ok := root.(ssa.CallInstruction)
			if !ok {
				continue
			}
			for _, op := range ops {
				if op.Token && op.Instr == call && (index < 0 || index == op.TokenResult) && (op == acquire || op.Kind == Count) {
					return i, op.Grant
				}
			}
		}
	}
	return -1, false
}

// displayName names a function as code calls it: uuid.NewString,
// time.Time.UnixNano.
func displayName(obj *types.Func) string {
	if recv := ssautil.RecvName(obj); recv != "" {
		return obj.Pkg().Name() + "." + recv + "." + obj.Name()
	}
	return obj.Pkg().Name() + "." + obj.Name()
}
