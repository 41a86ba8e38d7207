package effects

import (
	"encoding/json"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/link"
	"github.com/lockvet/lockvet/internal/sqlcall"
	"github.com/lockvet/lockvet/internal/sqltext"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// node is a function of the package with the closures it declares: they are
// summarised together, as the function's effects.
type node struct {
	fn    *ssa.Function
	calls []ssa.CallInstruction // in the order SSA lists them
	succs []*node               // the package's functions it calls

	// Tarjan's bookkeeping.
	index, low       int
	visited, onStack bool
}

// maxRounds bounds the rounds of one component: summaries only grow, and
// maxListed bounds them, so this is a guard, never the answer.
const maxRounds = 64

type summariser struct {
	pass  *analysis.Pass
	prog  *buildssa.SSA
	res   *Result
	order []*node // in source order
	nodes map[*ssa.Function]*node
	sums  map[*ssa.Function]*Summary
}

// summarise computes the summaries of the package's functions, bottom-up over
// the strongly connected components of its call graph and across packages
// through facts, and records what each call does in res.
func summarise(pass *analysis.Pass, prog *buildssa.SSA, res *Result) map[*ssa.Function]*Summary {
	s := &summariser{pass: pass, prog: prog, res: res,
		nodes: make(map[*ssa.Function]*node), sums: make(map[*ssa.Function]*Summary)}
	for _, fn := range prog.SrcFuncs {
		root := ssautil.Root(fn)
		n := s.nodes[root]
		if n == nil {
			n = &node{fn: root}
			s.nodes[root] = n
			s.order = append(s.order, n)
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					n.calls = append(n.calls, call)
				}
			}
		}
	}
	for _, n := range s.order {
		for _, call := range n.calls {
			if m := s.calleeNode(call); m != nil && m != n {
				n.succs = append(n.succs, m)
			}
		}
	}
	for _, comp := range s.components() {
		for range maxRounds {
			changed := false
			for _, n := range comp {
				if sum := s.summary(n); !reflect.DeepEqual(sum, s.sums[n.fn]) {
					s.sums[n.fn], changed = sum, true
				}
			}
			if !changed {
				break
			}
		}
	}
	for _, n := range s.order {
		sers := s.serializers(n)
		for _, call := range n.calls {
			if eff := s.of(call, sers); eff != nil {
				res.Of[call] = eff
			}
		}
	}
	out := make(map[*ssa.Function]*Summary)
	for fn, sum := range s.sums {
		if !sum.empty() {
			out[fn] = sum
		}
	}
	return out
}

// summary computes n's summary from what its callees' summaries say now.
func (s *summariser) summary(n *node) *Summary {
	sers := s.serializers(n)
	sum := &Summary{}
	for _, call := range n.calls {
		if s.calleeNode(call) == n {
			continue // recursion: the function's own effects
		}
		eff := s.of(call, sers)
		if eff == nil {
			continue
		}
		if s.res.SQL.Calls[call] != nil {
			sum.merge(eff, "") // made here, in n's terms already
		} else {
			sum.merge(remap(eff, call, n.fn), calleeName(call))
		}
	}
	sum.Claim = s.claim(n, sers)
	return sum
}

// components returns the strongly connected components of the call graph,
// callees before callers (Tarjan's order), each in source order. It is
// iterative: call chains may be deeper than a goroutine's stack.
func (s *summariser) components() [][]*node {
	var out [][]*node
	var stack []*node
	index := 0
	visit := func(n *node) {
		n.index, n.low, n.visited, n.onStack = index, index, true, true
		index++
		stack = append(stack, n)
	}
	type frame struct {
		n    *node
		next int
	}
	for _, root := range s.order {
		if root.visited {
			continue
		}
		visit(root)
		work := []frame{{n: root}}
		for len(work) > 0 {
			f := &work[len(work)-1]
			if f.next < len(f.n.succs) {
				m := f.n.succs[f.next]
				f.next++
				if !m.visited {
					visit(m)
					work = append(work, frame{n: m})
				} else if m.onStack {
					f.n.low = min(f.n.low, m.index)
				}
				continue
			}
			n := f.n
			work = work[:len(work)-1]
			if len(work) > 0 {
				p := work[len(work)-1].n
				p.low = min(p.low, n.low)
			}
			if n.low != n.index {
				continue
			}
			var comp []*node
			for {
				m := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				m.onStack = false
				comp = append(comp, m)
				if m == n {
					break
				}
			}
			out = append(out, s.sourceOrder(comp))
		}
	}
	return out
}

func (s *summariser) sourceOrder(comp []*node) []*node {
	if len(comp) == 1 {
		return comp
	}
	in := make(map[*node]bool, len(comp))
	for _, n := range comp {
		in[n] = true
	}
	out := comp[:0:0]
	for _, n := range s.order {
		if in[n] {
			out = append(out, n)
		}
	}
	return out
}

// calleeNode returns the function of this package a call reaches, nil for
// calls of closures, of other packages and through interfaces.
func (s *summariser) calleeNode(call ssa.CallInstruction) *node {
	obj := s.localCallee(call)
	if obj == nil {
		return nil
	}
	if fn := s.prog.Pkg.Prog.FuncValue(obj); fn != nil {
		return s.nodes[fn]
	}
	return nil
}

// localCallee returns the function of this package a call reaches statically,
// its generic origin for an instance; nil for anything else.
func (s *summariser) localCallee(call ssa.CallInstruction) *types.Func {
	c := call.Common()
	if c.IsInvoke() {
		return nil
	}
	callee := c.StaticCallee()
	if callee == nil || callee.Parent() != nil {
		return nil
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() != s.pass.Pkg {
		return nil
	}
	return obj.Origin()
}

// of says what one call does; nil when it is pure. The writes of a callee
// that another statement of this flow serializes are marked so, and so are
// those it makes in a loop.
func (s *summariser) of(call ssa.CallInstruction, sers []serializer) *Summary {
	if c := s.res.SQL.Calls[call]; c != nil {
		ser, txParam := serialized(call, s.res, sers)
		return direct(call, c, ser, txParam)
	}
	eff := s.callee(call)
	if eff == nil || len(eff.Writes) == 0 {
		return eff
	}
	ser, _ := serialized(call, s.res, sers)
	loop := inLoop(call)
	args := callArgs(call)
	marked := *eff
	marked.Writes = make([]Write, len(eff.Writes))
	for i, w := range eff.Writes {
		// The callee locked the row on the handle it was given: a
		// transaction here makes that lock hold until the write.
		txGiven := w.TxParam > 0 && w.TxParam <= len(args) && sqlcall.IsTx(args[w.TxParam-1])
		w.Serialized = w.Serialized || ser || txGiven
		w.InLoop = w.InLoop || loop
		marked.Writes[i] = w
	}
	return &marked
}

// callee says what a call of a function does; nil when it is pure.
func (s *summariser) callee(call ssa.CallInstruction) *Summary {
	common := call.Common()
	switch v := common.Value.(type) {
	case *ssa.Builtin:
		return nil
	case *ssa.MakeClosure:
		if fn := v.Fn.(*ssa.Function); fn.Synthetic != "" {
			// A method value (x.M): the method's effects.
			if obj, ok := fn.Object().(*types.Func); ok {
				return s.funcSummary(obj)
			}
		}
		return nil // its body is summarised with the function that makes it
	case *ssa.Function:
		if v.Parent() != nil {
			return nil
		}
	}
	if common.IsInvoke() {
		if sum := linkedSummary(common.Method); sum != nil {
			return sum
		}
		return byPackage(common.Method)
	}
	callee := common.StaticCallee()
	if callee == nil {
		return &Summary{Unknown: "a call of a func value"}
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return &Summary{Unknown: callee.String()}
	}
	return s.funcSummary(obj)
}

// funcSummary says what a call of obj does: its summary in this package or
// its fact, or what the table says of its package.
func (s *summariser) funcSummary(obj *types.Func) *Summary {
	obj = obj.Origin()
	if obj.Pkg() == s.pass.Pkg {
		fn := s.prog.Pkg.Prog.FuncValue(obj)
		n := s.nodes[fn]
		if fn == nil || n == nil {
			return &Summary{Unknown: obj.FullName()} // no body lockvet summarised
		}
		if sum := s.sums[n.fn]; sum != nil && !sum.empty() {
			return sum
		}
		return nil
	}
	fact := new(Summary)
	if s.pass.ImportObjectFact(obj, fact) {
		return fact
	}
	if obj.Pkg() != nil && s.pass.ImportPackageFact(obj.Pkg(), new(packageFact)) {
		return nil // a summarised package where this function does nothing outside
	}
	if isPure(s.pass, obj) {
		return nil
	}
	return byPackage(obj)
}

// linkedSummary returns the summary the link step found for a call of the
// interface method m; nil without one, and for one that does nothing.
func linkedSummary(m *types.Func) *Summary {
	facts, ok := link.Lookup(m)
	if !ok || facts.Summary == nil {
		return nil
	}
	sum := new(Summary)
	if json.Unmarshal(facts.Summary, sum) != nil || sum.empty() {
		return nil
	}
	return sum
}

// callArgs are a call's arguments as a callee's parameters number them: the
// receiver first, also for a call through an interface.
func callArgs(call ssa.CallInstruction) []ssa.Value {
	c := call.Common()
	if c.IsInvoke() {
		return append([]ssa.Value{c.Value}, c.Args...)
	}
	return c.Args
}

// byPackage classifies a call by the package of its callee, from the table.
func byPackage(obj *types.Func) *Summary {
	if obj.Pkg() == nil {
		return nil // error.Error
	}
	switch classify(obj.Pkg().Path(), ssautil.RecvName(obj), obj.Name()) {
	case pure:
		return nil
	case external:
		return &Summary{External: obj.FullName()}
	}
	return &Summary{Unknown: obj.FullName()}
}

// direct summarises a call that runs SQL.
func direct(call ssa.CallInstruction, c *sqlcall.Call, serial bool, txParam int) *Summary {
	if !c.Known {
		return &Summary{Unknown: "SQL lockvet cannot read"}
	}
	switch {
	case c.Stmt.Kind.Writes():
		return &Summary{Writes: []Write{{
			Stmt: c.Stmt, Text: c.Text, Checked: sqlcall.ResultChecked(c), Keyed: c.Keyed, Serialized: serial,
			TxParam: txParam, InLoop: inLoop(call), Params: params(c.Args, ssautil.Root(call.Parent())),
		}}}
	case c.Stmt.Kind == sqltext.Select && c.Stmt.Locking == "":
		var keys []string
		for _, w := range c.Stmt.Where {
			if w.Op == "=" {
				keys = append(keys, w.Column)
			}
		}
		return &Summary{Reads: []Read{{Table: c.Stmt.Table, Keys: keys}}}
	}
	return nil
}

// params tells which parameter of fn binds each argument; nil when the
// arguments are not known.
func params(args []ssa.Value, fn *ssa.Function) []int {
	if args == nil {
		return nil
	}
	out := make([]int, len(args))
	for i, a := range args {
		out[i] = paramOf(a, fn)
	}
	return out
}

// paramOf returns N when v is the Nth parameter of fn, looked at through
// conversions, variables assigned once and closures' captures; -1 otherwise.
func paramOf(v ssa.Value, fn *ssa.Function) int {
	for range 8 {
		v = ssautil.Unwrap(ssautil.Assigned(v))
		switch x := v.(type) {
		case *ssa.Parameter:
			for i, p := range fn.Params {
				if p == x {
					return i
				}
			}
			return -1
		case *ssa.FreeVar:
			if v = ssautil.FreeVarBinding(x); v == nil {
				return -1
			}
		default:
			return -1
		}
	}
	return -1
}

// remap puts a callee's summary in its caller's terms: the parameters that
// bind its writes' placeholders become the caller's, through the call's
// arguments.
func remap(eff *Summary, call ssa.CallInstruction, caller *ssa.Function) *Summary {
	if len(eff.Writes) == 0 {
		return eff
	}
	out := *eff
	out.Writes = make([]Write, len(eff.Writes))
	args := callArgs(call)
	for i, w := range eff.Writes {
		if w.Params != nil {
			mapped := make([]int, len(w.Params))
			for j, p := range w.Params {
				mapped[j] = -1
				if p >= 0 && p < len(args) {
					mapped[j] = paramOf(args[p], caller)
				}
			}
			w.Params = mapped
		}
		if w.TxParam > 0 {
			n := -1
			if w.TxParam <= len(args) {
				n = paramOf(args[w.TxParam-1], caller)
			}
			w.TxParam = n + 1 // the caller's own parameter, handed on
		}
		out.Writes[i] = w
	}
	return &out
}

// inLoop reports whether call's block can reach itself.
func inLoop(call ssa.CallInstruction) bool {
	start := call.Block()
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), start.Succs...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == start {
			return true
		}
		if !seen[b] {
			seen[b] = true
			stack = append(stack, b.Succs...)
		}
	}
	return false
}

func calleeName(call ssa.CallInstruction) string {
	if c := call.Common(); c.IsInvoke() {
		return c.Method.Name()
	}
	if callee := call.Common().StaticCallee(); callee != nil {
		return callee.Name()
	}
	return ""
}
