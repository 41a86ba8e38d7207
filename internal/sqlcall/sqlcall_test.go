package sqlcall_test

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/lazyssa"
	"github.com/lockvet/lockvet/internal/sqlcall"
	"github.com/lockvet/lockvet/internal/sqltext"
	"github.com/lockvet/lockvet/internal/testcases"
)

// TestRecognize reports every SQL call of the test packages, as
//
//	lib.Method Kind table set col=v,… where col op v,… args a,… flags
//
// with placeholders written pN.
func TestRecognize(t *testing.T) {
	analysistest.Run(t, testcases.Dir(t), analyzer, "./sqlcall/...")
}

// textFact carries the text a function returns, or a variable holds, to the
// packages that use it, the way a check plugs TextOf into its own facts.
type textFact struct{ Text string }

func (*textFact) AFact()           {}
func (f *textFact) String() string { return strconv.Quote(f.Text) }

var analyzer = &analysis.Analyzer{
	Name:      "sqlcalltest",
	Doc:       "report the SQL calls sqlcall recognises",
	Requires:  []*analysis.Analyzer{lazyssa.Analyzer},
	FactTypes: []analysis.Fact{new(textFact)},
	Run:       run,
}

func run(pass *analysis.Pass) (any, error) {
	prog := pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Lazy).SSA()
	r := sqlcall.NewRecognizer(pass, prog.Pkg, prog.SrcFuncs)
	r.TextOf = func(obj types.Object) (string, bool) {
		f := new(textFact)
		return f.Text, pass.ImportObjectFact(obj, f)
	}
	for _, m := range prog.Pkg.Members {
		switch m := m.(type) {
		case *ssa.Function:
			if strings.HasSuffix(m.Name(), "SQL") && m.Object().Exported() {
				if text, ok := r.ReturnedText(m); ok {
					pass.ExportObjectFact(m.Object(), &textFact{text})
				}
			}
		case *ssa.Global:
			if strings.HasSuffix(m.Name(), "SQL") && m.Object().Exported() {
				if text, ok := r.VarText(m); ok {
					pass.ExportObjectFact(m.Object(), &textFact{text})
				}
			}
		}
	}
	for _, fn := range prog.SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if c := r.Recognize(call); c != nil {
					pass.Reportf(call.Pos(), "%s", describe(c))
				}
			}
		}
	}
	return nil, nil
}

func describe(c *sqlcall.Call) string {
	st := c.Stmt
	out := []string{c.Lib + "." + c.Method, st.Kind.String()}
	if st.Table != "" {
		out = append(out, st.Table)
	}
	if len(st.Set) > 0 {
		var set []string
		for _, a := range st.Set {
			s := a.Column + "=" + operand(a.Value)
			if a.RefsSelf {
				s += "(self)"
			}
			set = append(set, s)
		}
		out = append(out, "set "+strings.Join(set, ","))
	}
	if st.SetFromValue {
		out = append(out, "set from a value")
	}
	if len(st.Where) > 0 {
		var where []string
		for _, w := range st.Where {
			op := w.Op
			if strings.Trim(op, "=<>!") != "" {
				op = " " + op + " "
			}
			where = append(where, w.Column+op+operand(w.Operand))
		}
		out = append(out, "where "+strings.Join(where, ","))
	}
	if len(c.Args) > 0 {
		var args []string
		for _, a := range c.Args {
			args = append(args, name(a))
		}
		out = append(out, "args "+strings.Join(args, ","))
	}
	out = append(out, "on "+name(c.Handle))
	flags := []struct {
		on   bool
		text string
	}{
		{c.InTx, "tx"},
		{!c.Known, "unknown"},
		{c.Named != nil, "named " + name(c.Named)},
		{st.WhereOpaque, "opaque"},
		{st.OnConflict != "", "conflict " + st.OnConflict},
		{st.Locking != "", "lock " + st.Locking},
		{st.SkipLocked, "skip locked"},
		{st.Returning, "returning"},
		{strings.Contains(c.Text, "__hole"), "holes"},
		{sqlcall.ResultChecked(c), "checked"},
	}
	for _, f := range flags {
		if f.on {
			out = append(out, f.text)
		}
	}
	return strings.Join(out, " ")
}

func operand(o sqltext.Operand) string {
	if o.Kind == sqltext.OpPlaceholder && o.Placeholder > 0 {
		return "p" + strconv.Itoa(o.Placeholder)
	}
	return o.Text
}

// name names a value the way the test sources spell it.
func name(v ssa.Value) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		return x.Name()
	case *ssa.Const:
		if x.Value == nil {
			return "nil"
		}
		return x.Value.ExactString()
	case *ssa.Call:
		if fn := x.Call.StaticCallee(); fn != nil {
			return fn.Name() + "#"
		}
		if x.Call.IsInvoke() {
			return x.Call.Method.Name() + "#"
		}
		return "_#"
	case *ssa.Extract:
		return name(x.Tuple) + strconv.Itoa(x.Index)
	case *ssa.UnOp:
		return "*" + name(x.X)
	case *ssa.Alloc:
		return "&" + x.Comment
	case *ssa.FieldAddr:
		return name(x.X) + "." + fmt.Sprint(x.Field)
	}
	return "_"
}
