package sqlcall

import (
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/ssautil"
)

const (
	stringxPath = "github.com/zeromicro/go-zero/core/stringx"
	builderPath = "github.com/zeromicro/go-zero/core/stores/builder"
)

// keyedInsert reports whether text, the statement of an INSERT, is one goctl
// (go-zero's model generator) wrote for a table whose key the caller
// supplies. goctl inserts the columns in xRowsExpectAutoSet, which leave out
// an auto-increment key, and updates those in xRowsWithPlaceHolder, which
// always leave out the key, first. A key left out of the second and not the
// first is inserted with the caller's value, so a second insert of the same
// row fails on it.
func (r *Recognizer) keyedInsert(text ssa.Value) bool {
	call, ok := ssautil.Assigned(ssautil.Unwrap(text)).(*ssa.Call)
	if !ok || !isFunc(call, "fmt", "", "Sprintf") || len(call.Call.Args) != 2 {
		return false
	}
	elems, _ := ssautil.SliceElems(call.Call.Args[1])
	for _, e := range elems {
		load, ok := ssautil.Unwrap(e).(*ssa.UnOp)
		if !ok {
			continue
		}
		g, ok := load.X.(*ssa.Global)
		if !ok {
			continue
		}
		prefix, found := strings.CutSuffix(g.Name(), "RowsExpectAutoSet")
		if !found {
			continue
		}
		update, _ := r.pkg.Members[prefix+"RowsWithPlaceHolder"].(*ssa.Global)
		inserted, ok1 := removed(r.inits[g])
		updated, ok2 := removed(r.inits[update])
		return ok1 && ok2 && len(updated) > 0 && !slices.Contains(inserted, updated[0])
	}
	return false
}

// removed returns the names a goctl column list removes from the field
// names: the constant arguments of the stringx.Remove inside the
// strings.Join or builder.PostgreSqlJoin that makes it.
func removed(v ssa.Value) ([]string, bool) {
	for range 4 {
		switch x := v.(type) {
		case *ssa.BinOp: // strings.Join(…, "=?,") + "=?"
			v = x.X
			continue
		case *ssa.Call:
			if isFunc(x, "strings", "", "Join") || isFunc(x, builderPath, "", "PostgreSqlJoin") {
				v = x.Call.Args[0]
				continue
			}
			if !isFunc(x, stringxPath, "", "Remove") {
				return nil, false
			}
			if len(x.Call.Args) != 2 {
				return nil, false
			}
			elems, ok := ssautil.SliceElems(x.Call.Args[1])
			if !ok {
				return nil, false
			}
			names := make([]string, len(elems))
			for i, e := range elems {
				if names[i], ok = ssautil.ConstString(e); !ok {
					return nil, false
				}
			}
			return names, true
		}
		return nil, false
	}
	return nil, false
}

// names returns the column names a goctl list holds: builder.RawFieldNames
// of a struct (its db tags, quoted as the generator quotes them), less those
// stringx.Remove takes out, read through the package-level variables that
// keep them.
func (r *Recognizer) names(v ssa.Value, depth int) ([]string, bool) {
	if depth > maxDepth {
		return nil, false
	}
	switch x := ssautil.Unwrap(v).(type) {
	case *ssa.UnOp:
		g, ok := x.X.(*ssa.Global)
		if !ok || x.Op != token.MUL || g.Pkg != r.pkg {
			return nil, false
		}
		if init, ok := r.inits[g]; ok {
			return r.names(init, depth+1)
		}
	case *ssa.Call:
		args := x.Call.Args
		switch {
		case isFunc(x, builderPath, "", "RawFieldNames") && len(args) == 2:
			return fieldNames(args[0], args[1])
		case isFunc(x, stringxPath, "", "Remove") && len(args) == 2:
			list, ok := r.names(args[0], depth+1)
			drop, ok2 := ssautil.SliceElems(args[1])
			if !ok || !ok2 {
				return nil, false
			}
			for _, d := range drop {
				s, ok := ssautil.ConstString(d)
				if !ok {
					return nil, false
				}
				list = slices.DeleteFunc(list, func(n string) bool { return n == s })
			}
			return list, true
		}
	}
	return nil, false
}

// fieldNames reads builder.RawFieldNames(&T{}, postgres...): T's db tags in
// field order, with `-` left out, backquoted unless for PostgreSQL.
func fieldNames(in, pg ssa.Value) ([]string, bool) {
	t := in.Type()
	if mi, ok := in.(*ssa.MakeInterface); ok {
		t = mi.X.Type()
	}
	st, ok := ssautil.Deref(t).Underlying().(*types.Struct)
	if !ok {
		return nil, false
	}
	postgres := false
	if elems, ok := ssautil.SliceElems(pg); ok && len(elems) > 0 {
		c, ok := ssautil.Unwrap(elems[0]).(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
			return nil, false
		}
		postgres = constant.BoolVal(c.Value)
	}
	var out []string
	for i := range st.NumFields() {
		tag := reflect.StructTag(st.Tag(i)).Get("db")
		tag, _, _ = strings.Cut(tag, ",")
		tag = strings.TrimSpace(tag)
		if tag == "-" {
			continue
		}
		if tag == "" {
			tag = st.Field(i).Name()
		}
		if !postgres {
			tag = "`" + tag + "`"
		}
		out = append(out, tag)
	}
	return out, true
}
