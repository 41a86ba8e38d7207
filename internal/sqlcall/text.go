package sqlcall

import (
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

const maxDepth = 16

// maxBuilt bounds the bytes one text may take to build. Depth alone does not:
// s = s + s sixteen times over a long constant would build gigabytes.
const maxBuilt = 64 << 20

// QueryText returns the statement text v holds: string constants and their
// concatenations, package-level variables and //go:embed files, variables
// assigned once, fmt.Sprintf with a constant format (verbs whose argument is
// not a constant become __hole1__, __hole2__, …), strings.Join of constants,
// strings.TrimSpace, sqlx.In and Rebind, functions of the package that return
// one text, and what TextOf says about other packages.
func (r *Recognizer) QueryText(v ssa.Value) (string, bool) {
	t := &texter{r: r}
	return t.text(v, 0)
}

// ReturnedText returns the text fn returns on every path, so a caller can
// export it as a fact for packages that call fn.
func (r *Recognizer) ReturnedText(fn *ssa.Function) (string, bool) {
	if got, ok := r.returns[fn]; ok {
		if got == nil {
			return "", false // a recursive call
		}
		return got.text, got.ok
	}
	r.returns[fn] = nil
	got := &returned{}
	if fn.Signature.Results().Len() == 1 && len(fn.Blocks) > 0 {
		got.text, got.ok = r.returnedText(fn)
	}
	r.returns[fn] = got
	return got.text, got.ok
}

type returned struct {
	text string
	ok   bool
}

func (r *Recognizer) returnedText(fn *ssa.Function) (string, bool) {
	text, seen := "", false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		s, ok := r.QueryText(ret.Results[0])
		if !ok || seen && s != text {
			return "", false
		}
		text, seen = s, true
	}
	return text, seen
}

// texter reads one text, numbering the holes it leaves.
type texter struct {
	r      *Recognizer
	holes  int
	inPhis map[*ssa.Phi]bool // a loop (q += "…") is not one text
	built  int               // bytes concatenated so far
}

// charge counts n more bytes built, false once over maxBuilt.
func (t *texter) charge(n int) bool {
	t.built += n
	return t.built <= maxBuilt
}

func (t *texter) text(v ssa.Value, depth int) (string, bool) {
	if depth > maxDepth {
		return "", false
	}
	v = ssautil.Unwrap(v)
	switch x := v.(type) {
	case *ssa.Const:
		return ssautil.ConstString(x)
	case *ssa.BinOp:
		if x.Op != token.ADD {
			return "", false
		}
		l, ok := t.text(x.X, depth+1)
		if !ok {
			return "", false
		}
		rt, ok := t.text(x.Y, depth+1)
		if !t.charge(len(l) + len(rt)) {
			return "", false
		}
		return l + rt, ok
	case *ssa.Phi:
		return t.phi(x, depth)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return t.load(x.X, depth)
		}
	case *ssa.Call:
		return t.call(x, depth)
	case *ssa.Extract:
		// query, args, err := sqlx.In(q, ids): the text is q's, its `?` for the
		// slice expanded.
		if call, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 && isFunc(call, sqlxPath, "", "In") && len(call.Call.Args) > 0 {
			return t.text(call.Call.Args[0], depth+1)
		}
	}
	return "", false
}

// phi reads a variable assigned on several paths: known only when every path
// gives the same text.
func (t *texter) phi(x *ssa.Phi, depth int) (string, bool) {
	if t.inPhis[x] {
		return "", false
	}
	if t.inPhis == nil {
		t.inPhis = make(map[*ssa.Phi]bool)
	}
	t.inPhis[x] = true
	defer delete(t.inPhis, x)
	text, seen, base := "", false, t.holes
	for _, e := range x.Edges {
		if e == x {
			continue
		}
		t.holes = base // each path numbers its holes alike
		s, ok := t.text(e, depth+1)
		if !ok || seen && s != text {
			return "", false
		}
		text, seen = s, true
	}
	return text, seen
}

func (t *texter) load(addr ssa.Value, depth int) (string, bool) {
	if g, ok := addr.(*ssa.Global); ok {
		if g.Pkg != t.r.pkg {
			return t.other(g.Object())
		}
		if s, ok := t.r.embeds[g.Name()]; ok {
			return s, true
		}
		if init, ok := t.r.inits[g]; ok {
			return t.text(init, depth+1)
		}
		return "", false
	}
	if v := ssautil.Stored(addr); v != nil {
		return t.text(v, depth+1)
	}
	if fa, ok := addr.(*ssa.FieldAddr); ok {
		if f := ssautil.FieldOf(fa); f != nil {
			s, ok := t.r.fields()[f]
			return s, ok
		}
	}
	return "", false
}

func (t *texter) call(call *ssa.Call, depth int) (string, bool) {
	fn := call.Call.StaticCallee()
	if fn == nil {
		return "", false
	}
	args := call.Call.Args
	switch {
	case isFunc(call, "fmt", "", "Sprintf") && len(args) == 2:
		format, ok := t.text(args[0], depth+1)
		elems, ok2 := ssautil.SliceElems(args[1])
		if !ok || !ok2 {
			return "", false
		}
		s := t.sprintf(format, elems, depth)
		if !t.charge(len(s)) {
			return "", false
		}
		return s, true
	case isFunc(call, "strings", "", "Join") && len(args) == 2:
		sep, ok2 := t.text(args[1], depth+1)
		if names, ok := t.r.names(args[0], depth+1); ok && ok2 {
			return strings.Join(names, sep), true
		}
		elems, ok := ssautil.SliceElems(args[0])
		if !ok || !ok2 {
			return "", false
		}
		parts := make([]string, len(elems))
		for i, e := range elems {
			if parts[i], ok = t.text(e, depth+1); !ok {
				return "", false
			}
		}
		s := strings.Join(parts, sep)
		if !t.charge(len(s)) {
			return "", false
		}
		return s, true
	case isFunc(call, builderPath, "", "PostgreSqlJoin") && len(args) == 1:
		names, ok := t.r.names(args[0], depth+1)
		if !ok {
			return "", false
		}
		set := make([]string, len(names))
		for i, n := range names {
			set[i] = n + " = $" + strconv.Itoa(i+2)
		}
		return strings.Join(set, ", "), true
	case isFunc(call, "strings", "", "TrimSpace") && len(args) == 1:
		s, ok := t.text(args[0], depth+1)
		return strings.TrimSpace(s), ok
	case (isFunc(call, sqlxPath, "", "Rebind") || isFunc(call, sqlxPath, "*", "Rebind")) && len(args) == 2:
		// sqlx.Rebind(bindType, q), db.Rebind(q): the driver's placeholders
		// number as the `?` did.
		return t.text(args[1], depth+1)
	}
	if fn.Pkg == t.r.pkg && fn.Object() != nil {
		s, ok := t.r.ReturnedText(fn)
		return t.splice(s), ok
	}
	if obj := fn.Object(); obj != nil {
		return t.other(obj)
	}
	return "", false
}

// other asks TextOf about a function or variable of another package.
func (t *texter) other(obj types.Object) (string, bool) {
	if t.r.TextOf == nil || obj == nil {
		return "", false
	}
	s, ok := t.r.TextOf(obj)
	return t.splice(s), ok
}

var holeRE = regexp.MustCompile(`__hole([0-9]+)__`)

// splice renumbers the holes of a text read elsewhere so that they follow
// this text's own.
func (t *texter) splice(s string) string {
	base, top := t.holes, 0
	s = holeRE.ReplaceAllStringFunc(s, func(h string) string {
		n, _ := strconv.Atoi(holeRE.FindStringSubmatch(h)[1])
		top = max(top, n)
		return t.hole(base + n)
	})
	t.holes = base + top
	return s
}

func (t *texter) hole(n int) string {
	return "__hole" + strconv.Itoa(n) + "__"
}

// sprintf formats like fmt.Sprintf, writing %s, %v and %d of constants as fmt
// would and every other verb as a new hole: the text a table-name or
// column-name hole stands for is unknown, but the statement's shape is not.
func (t *texter) sprintf(format string, args []ssa.Value, depth int) string {
	var b strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[j]) >= 0 {
			switch format[j] {
			case '*':
				next++
			case '[':
				k := strings.IndexByte(format[j:], ']')
				if n, err := strconv.Atoi(format[j+1 : j+max(k, 1)]); k > 0 && err == nil {
					next = n - 1
				}
			}
			j++
		}
		if j == len(format) {
			b.WriteString(format[i:])
			break
		}
		i = j
		if format[j] == '%' {
			b.WriteByte('%')
			continue
		}
		var arg ssa.Value
		if next >= 0 && next < len(args) {
			arg = args[next]
		}
		next++
		b.WriteString(t.verb(format[j], arg, depth))
	}
	return b.String()
}

func (t *texter) verb(verb byte, arg ssa.Value, depth int) string {
	if arg != nil && (verb == 's' || verb == 'v') {
		if s, ok := t.text(arg, depth+1); ok {
			return s
		}
	}
	if arg != nil && (verb == 'd' || verb == 'v') {
		if c, ok := ssautil.Unwrap(arg).(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Int {
			return c.Value.ExactString()
		}
	}
	t.holes++
	return t.hole(t.holes)
}

// isFunc reports whether call statically calls path.name, a package function
// when recv is "", a method of any type of the package when recv is "*".
func isFunc(call *ssa.Call, path, recv, name string) bool {
	fn := call.Call.StaticCallee()
	if fn == nil {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != path || obj.Name() != name {
		return false
	}
	isMethod := obj.Type().(*types.Signature).Recv() != nil
	return isMethod == (recv == "*")
}

// VarText returns the text a package-level variable of this package holds
// from its initializer or a //go:embed file, so a caller can export it as a
// fact for packages that use the variable.
func (r *Recognizer) VarText(g *ssa.Global) (string, bool) {
	t := &texter{r: r}
	return t.load(g, 0)
}
