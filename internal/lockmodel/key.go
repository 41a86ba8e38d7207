package lockmodel

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// keyOf renders the expression that computes a Redis key (or a lock value) as a
// string, so that two computations of the same key compare equal: the same SSA
// value, the same constant, the same field of the same receiver, or the same
// concatenation or Sprintf of those. Parameters of the outermost function render
// as {pN}, which lets a wrapper's key be re-rendered at its call sites; any value
// lockvet cannot name renders as its identity, so it only equals itself.
func keyOf(v ssa.Value) string {
	var b strings.Builder
	writeKey(&b, v, 0)
	return b.String()
}

const maxKeyDepth = 8

func writeKey(b *strings.Builder, v ssa.Value, depth int) {
	if depth > maxKeyDepth {
		fmt.Fprintf(b, "#%p", v)
		return
	}
	v = ssautil.Unwrap(v)
	switch x := v.(type) {
	case *ssa.Const:
		b.WriteString("c:")
		if x.Value == nil {
			b.WriteString("nil")
		} else {
			b.WriteString(x.Value.ExactString())
		}
	case *ssa.Parameter:
		if fn := x.Parent(); fn.Parent() == nil {
			for i, p := range fn.Params {
				if p == x {
					fmt.Fprintf(b, "{p%d}", i)
					return
				}
			}
		}
		fmt.Fprintf(b, "#%p", v)
	case *ssa.FreeVar:
		if bound := ssautil.FreeVarBinding(x); bound != nil {
			writeKey(b, bound, depth+1)
			return
		}
		fmt.Fprintf(b, "#%p", v)
	case *ssa.Global:
		b.WriteString("&" + x.RelString(nil))
	case *ssa.UnOp:
		if x.Op.String() != "*" {
			fmt.Fprintf(b, "#%p", v)
			return
		}
		// A load of a local variable captured by a closure stands for the variable.
		writeKey(b, x.X, depth+1)
		b.WriteString(".*")
	case *ssa.FieldAddr:
		writeKey(b, x.X, depth+1)
		b.WriteString("." + fieldName(x.X.Type(), x.Field))
	case *ssa.Field:
		writeKey(b, x.X, depth+1)
		b.WriteString("." + fieldName(x.X.Type(), x.Field))
	case *ssa.BinOp:
		b.WriteString("(")
		writeKey(b, x.X, depth+1)
		b.WriteString(" " + x.Op.String() + " ")
		writeKey(b, x.Y, depth+1)
		b.WriteString(")")
	case *ssa.Call:
		writeCallKey(b, x, depth)
	default:
		fmt.Fprintf(b, "#%p", v)
	}
}

// writeCallKey renders a call by its callee and arguments, so that
// `"lock:"+strconv.Itoa(id)` or `lockKey(id)` computed twice is one key: key
// builders are taken to depend only on their arguments.
func writeCallKey(b *strings.Builder, call *ssa.Call, depth int) {
	if c := call.Common(); c.IsInvoke() {
		// k.Key() on an interface or type parameter: a key getter.
		writeKey(b, c.Value, depth+1)
		b.WriteString("." + c.Method.Name())
		writeArgs(b, c, depth)
		return
	}
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Object() == nil {
		fmt.Fprintf(b, "#%p", call)
		return
	}
	b.WriteString(callee.Object().Name())
	writeArgs(b, call.Common(), depth)
}

func writeArgs(b *strings.Builder, c *ssa.CallCommon, depth int) {
	b.WriteString("(")
	args := c.Args
	if n := len(args); n > 0 && c.Signature().Variadic() {
		if elems, ok := ssautil.SliceElems(args[n-1]); ok {
			args = append(args[:n-1:n-1], elems...)
		}
	}
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		writeKey(b, a, depth+1)
	}
	b.WriteString(")")
}

func fieldName(t types.Type, i int) string {
	if st, ok := ssautil.Deref(t).Underlying().(*types.Struct); ok && i < st.NumFields() {
		return st.Field(i).Name()
	}
	return strconv.Itoa(i)
}

// isTemplate reports whether a rendered key depends only on constants, globals
// and parameters: a key a wrapper takes from its caller.
func isTemplate(k string) bool {
	return strings.Contains(k, "{p") && !strings.Contains(k, "#")
}

// instantiate re-renders a wrapper's key template with the keys of the
// arguments at one call site.
func instantiate(tmpl string, args []ssa.Value) string {
	var pairs []string
	for i, a := range args {
		pairs = append(pairs, fmt.Sprintf("{p%d}", i), keyOf(a))
	}
	return strings.NewReplacer(pairs...).Replace(tmpl)
}
