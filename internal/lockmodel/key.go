package lockmodel

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// Key is the expression that computes a Redis key (or a lock value), as far
// as lockvet can name it: constants, the outermost function's parameters,
// globals, fields, concatenations and calls of them. Two computations of the
// same key are equal Keys, and a wrapper's key, a template of its parameters,
// becomes its callers' key when its parameters are replaced by their
// arguments. Any value lockvet cannot name is Opaque: it equals only itself.
type Key struct {
	Kind KeyKind
	// Const: the constant, exactly; Global: its name; Field: the field's
	// name; BinOp: the operator; Call: the callee's name, or the method's for
	// an Invoke; Opaque: the value's identity.
	Text string
	N    int   // Param: the parameter's index, the receiver first
	Args []Key // Field, Deref: the operand; BinOp: both; Call, Invoke: receiver then arguments
	// Leaf: a call whose result is not computed from its arguments alone:
	// a method called with no argument but its receiver (s.newToken()), or
	// a function that draws a random value or reads the clock
	// (getUUID(key)). A value made by one does not repeat the key.
	Leaf bool
	// Collected: the key is read back from the list a loop appended it to
	// (for _, k := range taken { Del(ctx, k) }).
	Collected bool
}

// KeyKind is the kind of a Key.
type KeyKind int

const (
	Opaque KeyKind = iota
	Const
	Param
	Global
	Deref // a load of a variable a closure captured, or of a field
	Field
	BinOp
	Call   // a function of the key's arguments: lockKey(id), fmt.Sprintf
	Invoke // a method of an interface value: k.Key()
)

// maxKeyDepth bounds how deep a key expression is followed.
const maxKeyDepth = 8

// keyValue reads the expression v computes as a Key.
func keyValue(v ssa.Value) Key { return readKey(v, 0) }

// keyOf renders v's Key, the form keys are compared in.
func keyOf(v ssa.Value) string { return keyValue(v).String() }

func opaque(v any) Key { return Key{Kind: Opaque, Text: fmt.Sprintf("%p", v)} }

func readKey(v ssa.Value, depth int) Key {
	if depth > maxKeyDepth {
		return opaque(v)
	}
	// A variable assigned once, as a closure captures a parameter, is its value.
	v = ssautil.Unwrap(ssautil.Assigned(ssautil.Unwrap(v)))
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value == nil {
			return Key{Kind: Const, Text: "nil"}
		}
		return Key{Kind: Const, Text: x.Value.ExactString()}
	case *ssa.Parameter:
		if fn := x.Parent(); fn.Parent() == nil {
			for i, p := range fn.Params {
				if p == x {
					return Key{Kind: Param, N: i}
				}
			}
		}
		if bound := ssautil.ParamBinding(x); bound != nil {
			return readKey(bound, depth+1)
		}
	case *ssa.FreeVar:
		if bound := ssautil.FreeVarBinding(x); bound != nil {
			return readKey(bound, depth+1)
		}
	case *ssa.Global:
		return Key{Kind: Global, Text: x.RelString(nil)}
	case *ssa.UnOp:
		if ia, ok := x.X.(*ssa.IndexAddr); ok && x.Op.String() == "*" {
			if e, ok := ssautil.Appended(ia.X); ok {
				// An element of the keys a loop collected: the key it appended.
				k := readKey(e, depth+1)
				k.Collected = true
				return k
			}
		}
		if x.Op.String() == "*" {
			// A load of a local variable captured by a closure stands for the variable.
			return Key{Kind: Deref, Args: []Key{readKey(x.X, depth+1)}}
		}
	case *ssa.FieldAddr:
		base := x.X
		if v := ssautil.SpilledField(base, x.Field); v != nil {
			// A field of a struct value held in memory: the value's field.
			base = v
		}
		return Key{Kind: Field, Text: fieldName(x.X.Type(), x.Field), Args: []Key{readKey(base, depth+1)}}
	case *ssa.Field:
		// A field read from a struct value is the key a load through a
		// pointer reads: a value receiver's l.key is a pointer receiver's.
		f := Key{Kind: Field, Text: fieldName(x.X.Type(), x.Field), Args: []Key{readKey(x.X, depth+1)}}
		return Key{Kind: Deref, Args: []Key{f}}
	case *ssa.IndexAddr:
		return Key{Kind: Field, Text: index(x.Index), Args: []Key{readKey(x.X, depth+1)}}
	case *ssa.Index:
		return Key{Kind: Deref, Args: []Key{{Kind: Field, Text: index(x.Index), Args: []Key{readKey(x.X, depth+1)}}}}
	case *ssa.BinOp:
		return Key{Kind: BinOp, Text: x.Op.String(), Args: []Key{readKey(x.X, depth+1), readKey(x.Y, depth+1)}}
	case *ssa.Call:
		return callKey(x, depth)
	case *ssa.Slice:
		// A slice literal, as strings.Join([]string{prefix, id}, ":") takes.
		if elems, ok := ssautil.SliceElems(x); ok {
			k := Key{Kind: Call, Text: "[]", Args: make([]Key, len(elems))}
			for i, e := range elems {
				k.Args[i] = readKey(e, depth+1)
			}
			return k
		}
	}
	return opaque(v)
}

// eachOf is the key of the element a loop visits in the list k: what a
// release that spreads k (Del(ctx, keys...)) deletes, key by key.
func eachOf(k Key) Key {
	return Key{Kind: Deref, Args: []Key{{Kind: Field, Text: "[]", Args: []Key{k}}}}
}

// index names an element of a list: [2] for a constant index, [] for the
// element a loop visits, so that a helper locking each item of
// order.Transfers and one releasing each item of it hold the same keys.
func index(i ssa.Value) string {
	if c, ok := i.(*ssa.Const); ok && c.Value != nil {
		return "[" + c.Value.ExactString() + "]"
	}
	return "[]"
}

// callKey reads a call by its callee and arguments, so that
// `"lock:"+strconv.Itoa(id)` or `lockKey(id)` computed twice is one key: key
// builders are taken to depend only on their arguments.
func callKey(call *ssa.Call, depth int) Key {
	c := call.Common()
	if c.IsInvoke() {
		// k.Key() on an interface or type parameter: a key getter.
		return Key{Kind: Invoke, Text: c.Method.Name(), Args: append([]Key{readKey(c.Value, depth+1)}, argKeys(c, depth)...), Leaf: len(c.Args) == 0}
	}
	callee := c.StaticCallee()
	if callee == nil || callee.Object() == nil {
		return opaque(call)
	}
	leaf := callee.Signature.Recv() != nil && len(c.Args) == 1 || drawsFresh(callee)
	return Key{Kind: Call, Text: callee.Object().Name(), Args: argKeys(c, depth), Leaf: leaf}
}

func argKeys(c *ssa.CallCommon, depth int) []Key {
	args := c.Args
	if n := len(args); n > 0 && c.Signature().Variadic() {
		if elems, ok := ssautil.SliceElems(args[n-1]); ok {
			args = append(args[:n-1:n-1], elems...)
		}
	}
	out := make([]Key, len(args))
	for i, a := range args {
		out[i] = readKey(a, depth+1)
	}
	return out
}

// drawsFresh reports whether fn, a function of the program, calls a source
// of unique values: a UUID or random package, or the clock.
func drawsFresh(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if obj, _, _ := ssautil.Callee(call.Common()); obj != nil && obj.Pkg() != nil && clients.Fresh(obj.Pkg().Path(), obj.Name()) {
				return true
			}
		}
	}
	return false
}

// String renders the key for comparison, and for facts a reader can review:
// c:"lock:" for a constant, {p2} for a parameter, &pkg.v for a global, x.f
// for a field, x.* for a load, (x + y), f(x, y), x.M(y), #… for an opaque
// value.
func (k Key) String() string {
	var b strings.Builder
	k.write(&b)
	return b.String()
}

func (k Key) write(b *strings.Builder) {
	switch k.Kind {
	case Const:
		b.WriteString("c:" + k.Text)
	case Param:
		b.WriteString("{p" + strconv.Itoa(k.N) + "}")
	case Global:
		b.WriteString("&" + k.Text)
	case Deref:
		k.Args[0].write(b)
		b.WriteString(".*")
	case Field:
		k.Args[0].write(b)
		b.WriteString("." + k.Text)
	case BinOp:
		b.WriteString("(")
		k.Args[0].write(b)
		b.WriteString(" " + k.Text + " ")
		k.Args[1].write(b)
		b.WriteString(")")
	case Call:
		b.WriteString(k.Text)
		writeList(b, k.Args)
	case Invoke:
		k.Args[0].write(b)
		b.WriteString("." + k.Text)
		writeList(b, k.Args[1:])
	default:
		b.WriteString("#" + k.Text)
	}
}

func writeList(b *strings.Builder, keys []Key) {
	b.WriteString("(")
	for i, a := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		a.write(b)
	}
	b.WriteString(")")
}

// Repeats reports whether k is computed from nothing but the constants and
// the values key is computed from: whoever computes key computes k too.
func (k Key) Repeats(key Key) bool {
	have := make(map[string]bool)
	key.leaves(func(l Key) { have[l.String()] = true })
	named, repeats := false, true
	k.leaves(func(l Key) {
		if l.Kind != Const {
			named = true
			repeats = repeats && have[l.String()]
		}
	})
	return named && repeats
}

// leaves calls f on each value k is computed from: constants, parameters,
// globals, fields, loads, opaque values, and calls of no arguments (a fresh
// value each time, as uuid.NewString() or s.newToken()).
func (k Key) leaves(f func(Key)) {
	switch k.Kind {
	case BinOp, Call, Invoke:
		if len(k.Args) > 0 && !k.Leaf {
			for _, a := range k.Args {
				a.leaves(f)
			}
			return
		}
	}
	f(k)
}

// codeKey reports whether the names a key is built from say it holds a
// one-time code (an email or SMS code, a captcha, an OTP) and not a lock:
// checking and deleting it is a login's step, not a release.
func codeKey(k Key) bool {
	code := false
	lock := false
	k.leaves(func(l Key) {
		if l.Kind != Const && l.Kind != Global {
			return
		}
		name := strings.ToLower(l.Text)
		lock = lock || strings.Contains(name, "lock")
		for _, w := range []string{"code", "captcha", "otp", "verif"} {
			code = code || strings.Contains(name, w)
		}
	})
	return code && !lock
}

// Template reports whether the key depends only on constants, globals and
// parameters: a key a wrapper takes from its caller.
func (k Key) Template() bool {
	params, ok := k.walk()
	return params && ok
}

// walk reports whether k holds a parameter, and whether it holds no opaque
// value.
func (k Key) walk() (params, named bool) {
	switch k.Kind {
	case Opaque:
		return false, false
	case Param:
		return true, true
	}
	named = true
	for _, a := range k.Args {
		p, n := a.walk()
		params, named = params || p, named && n
	}
	return params, named
}

// Instantiate replaces the template's parameters by the keys of the
// arguments at one call site.
func (k Key) Instantiate(args []ssa.Value) Key {
	if k.Kind == Param {
		if k.N < len(args) {
			return keyValue(args[k.N])
		}
		return k
	}
	if len(k.Args) == 0 {
		return k
	}
	out := k
	out.Args = make([]Key, len(k.Args))
	for i, a := range k.Args {
		out.Args[i] = a.Instantiate(args)
	}
	return out
}

// Object splits a key that reads a field of one parameter ({pN}.key.*), or
// that a method of it builds from it alone (lockKey({p0})), into the
// parameter's index and the rest, rendered: the lock object and what of it
// the key is. ok is false for any other key.
func (k Key) Object() (n int, rest string, ok bool) {
	var path []string
	for k.Kind == Field || k.Kind == Deref || k.Kind == Call && len(k.Args) == 1 {
		switch k.Kind {
		case Field:
			path = append(path, "."+k.Text)
		case Call: // a method of the object that builds the key: h.lockKey()
			path = append(path, "."+k.Text+"()")
		default:
			path = append(path, ".*")
		}
		k = k.Args[0]
	}
	if k.Kind != Param || len(path) == 0 {
		return 0, "", false
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return k.N, strings.Join(path, ""), true
}

func fieldName(t types.Type, i int) string {
	if st, ok := ssautil.Deref(t).Underlying().(*types.Struct); ok && i < st.NumFields() {
		return st.Field(i).Name()
	}
	return strconv.Itoa(i)
}

// collected reports whether k or a part of it is read back from the list a
// loop collected it in.
func collected(k Key) bool {
	if k.Collected {
		return true
	}
	for _, a := range k.Args {
		if collected(a) {
			return true
		}
	}
	return false
}
