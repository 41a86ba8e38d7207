package sqlcall

import (
	"go/types"
	"reflect"
	"strings"
	"unicode"
)

// modelTable names the table gorm writes a model of type t to (a *T, []T or
// *[]*T): what T's TableName method returns when the method's body is in this
// package, else gorm's default naming, approximated: snake case, then an
// English plural without the irregular words. A TableName out of sight, or a
// naming strategy set where the *gorm.DB is opened, are not seen: "" then,
// and a wrong name in the second case.
func (r *Recognizer) modelTable(t types.Type) string {
	n, ok := types.Unalias(modelType(t)).(*types.Named)
	if !ok {
		return ""
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return ""
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), false, n.Obj().Pkg(), "TableName")
	if m, ok := obj.(*types.Func); ok {
		fn := r.pkg.Prog.FuncValue(m)
		if fn == nil || fn.Pkg != r.pkg {
			return ""
		}
		text, ok := r.ReturnedText(fn)
		if !ok {
			return ""
		}
		return tableName(text)
	}
	return plural(snake(n.Obj().Name()))
}

// snake writes a Go name the way gorm's NamingStrategy does, roughly:
// OrderItem → order_item, HTTPRequest → http_request, UserID → user_id.
func snake(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, c := range rs {
		if unicode.IsUpper(c) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && nextLower {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// plural makes the regular English plural jinzhu/inflection would.
func plural(s string) string {
	switch {
	case s == "":
		return s
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"), strings.HasSuffix(s, "z"),
		strings.HasSuffix(s, "ch"), strings.HasSuffix(s, "sh"):
		return s + "es"
	case strings.HasSuffix(s, "y") && len(s) > 1 && !strings.ContainsRune("aeiou", rune(s[len(s)-2])):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

// modelType is the model a gorm value holds: T of T, *T, []T, *[]*T.
func modelType(t types.Type) types.Type {
	for range 4 {
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Slice:
			t = u.Elem()
			continue
		}
		break
	}
	return t
}

// modelColumns names the columns gorm writes for a model type: each field's
// column tag, else its name in snake case; an embedded struct's fields
// (gorm.Model's) as its own.
func modelColumns(t types.Type) []string { return embeddedColumns(t, 0) }

func embeddedColumns(t types.Type, depth int) []string {
	st, ok := modelType(t).Underlying().(*types.Struct)
	if !ok || depth > 4 {
		return nil
	}
	var out []string
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i)).Get("gorm")
		if tag == "-" || !f.Exported() {
			continue
		}
		if f.Embedded() {
			out = append(out, embeddedColumns(f.Type(), depth+1)...)
			continue
		}
		col := snake(f.Name())
		for opt := range strings.SplitSeq(tag, ";") {
			if name, value, _ := strings.Cut(strings.TrimSpace(opt), ":"); strings.EqualFold(name, "column") && value != "" {
				col = strings.ToLower(value)
			}
		}
		out = append(out, col)
	}
	return out
}
