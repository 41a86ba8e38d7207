package lockmodel

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

// fieldConsts are the unexported struct fields and package-level variables
// of a package that hold one constant wherever the package sets them: a lock
// object whose constructor stores value: "locked" stores a constant at every
// acquisition, though the acquisition reads a field, and so does a lock whose
// value is `var lock, _ = json.Marshal(true)`. Only the package can set an
// unexported field or variable, so all its stores are in sight.
type fieldConsts map[*types.Var]bool

func constFields(pkg *types.Package, funcs []*ssa.Function, inits map[*ssa.Global]ssa.Value) fieldConsts {
	value := make(map[*types.Var]string)
	varies := make(map[*types.Var]bool)
	read := make(map[*types.Var]bool)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if fn.Synthetic == "" {
					escaped(instr, varies)
				}
				readField(instr, pkg, read, varies)
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				f := storedField(st.Addr)
				if g, ok := st.Addr.(*ssa.Global); ok && fn.Synthetic == "" {
					f, _ = g.Object().(*types.Var) // a store outside the initializer
				}
				if f == nil || f.Exported() || f.Pkg() != pkg {
					continue
				}
				c, isConst := ssautil.Unwrap(st.Val).(*ssa.Const)
				switch {
				case !isConst || c.Value == nil:
					varies[f] = true
				case value[f] == "":
					value[f] = c.Value.ExactString()
				case value[f] != c.Value.ExactString():
					varies[f] = true
				}
			}
		}
	}
	for g, v := range inits {
		if f, ok := g.Object().(*types.Var); ok && !f.Exported() && !varies[f] && value[f] == "" && constDerived(v, 0) {
			value[f] = "init"
		}
	}
	out := make(fieldConsts)
	for f := range value {
		if !varies[f] {
			out[f] = true
		}
	}
	for f := range read {
		if _, set := value[f]; !set && !varies[f] {
			out[f] = true // never set: always ""
		}
	}
	return out
}

// readField records a string field of the package read by instr (a token
// field the package forgot to set holds "" wherever it is read), and marks
// it as varying when its address is used other than to load or store it.
func readField(instr ssa.Instruction, pkg *types.Package, read, varies map[*types.Var]bool) {
	var f *types.Var
	switch x := instr.(type) {
	case *ssa.FieldAddr:
		f = storedField(x)
		if f == nil {
			return
		}
		for _, ref := range *x.Referrers() {
			switch r := ref.(type) {
			case *ssa.DebugRef:
			case *ssa.UnOp:
				if r.Op != token.MUL {
					varies[f] = true
				}
			case *ssa.Store:
				if r.Addr != x {
					varies[f] = true
				}
			default:
				varies[f] = true
			}
		}
	case *ssa.Field:
		if st, ok := x.X.Type().Underlying().(*types.Struct); ok && x.Field < st.NumFields() {
			f = st.Field(x.Field)
		}
	}
	if f == nil || f.Exported() || f.Pkg() != pkg {
		return
	}
	if b, ok := f.Type().Underlying().(*types.Basic); ok && b.Kind() == types.String {
		read[f] = true
	}
}

// storedField returns the field addr is the address of, nil for any other
// address.
func storedField(addr ssa.Value) *types.Var {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	return ssautil.FieldOf(fa)
}

// escaped marks the package-level variables whose address instr uses other
// than to load them (&v passed to a flag or a decoder): they may change.
func escaped(instr ssa.Instruction, varies map[*types.Var]bool) {
	if load, ok := instr.(*ssa.UnOp); ok && load.Op == token.MUL {
		return
	}
	if st, ok := instr.(*ssa.Store); ok {
		if _, ok := st.Addr.(*ssa.Global); ok {
			return // a store, which constFields judges
		}
	}
	var ops [8]*ssa.Value
	for _, op := range instr.Operands(ops[:0]) {
		if g, ok := (*op).(*ssa.Global); ok {
			if v, ok := g.Object().(*types.Var); ok {
				varies[v] = true
			}
		}
	}
}

// constDerived reports whether v is a constant or computed from constants
// alone by a conversion or a marshalling function: json.Marshal(true).
func constDerived(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := ssautil.Unwrap(v).(type) {
	case *ssa.Const:
		return x.Value != nil
	case *ssa.Convert:
		return constDerived(x.X, depth+1)
	case *ssa.Extract:
		return x.Index == 0 && constDerived(x.Tuple, depth+1)
	case *ssa.Call:
		fn := x.Call.StaticCallee()
		if fn == nil || fn.Pkg == nil || !pureEncoders[fn.Pkg.Pkg.Path()+"."+fn.Name()] {
			return false
		}
		for _, a := range x.Call.Args {
			if !constDerived(a, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// pureEncoders turn a value into bytes or text, the same for the same value.
var pureEncoders = map[string]bool{
	"encoding/json.Marshal": true, "fmt.Sprint": true, "fmt.Sprintf": true,
	"strconv.Itoa": true, "strconv.FormatInt": true, "strconv.FormatBool": true,
}

// holds reports whether v is a load of such a field or variable.
func (c fieldConsts) holds(v ssa.Value) bool {
	load, ok := ssautil.Unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	f := storedField(load.X)
	if g, ok := load.X.(*ssa.Global); ok {
		f, _ = g.Object().(*types.Var)
	}
	return f != nil && c[f]
}
