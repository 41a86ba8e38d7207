package sqlcall

import (
	"go/types"
	"reflect"
	"strings"
)

const bunPath = "github.com/uptrace/bun"

// bunModel is what bun reads from a model type: its table, columns and
// primary key columns.
type bunModel struct {
	table      string
	columns    []string
	primaryKey []string
}

// readBunModel reads a model type as bun names it: the table from the tag of
// an embedded bun.BaseModel (`bun:"table:orders,alias:o"`), else the type's
// name in snake case, plural; each column from its field's tag
// (`bun:"status,notnull"`), else the field's name in snake case; the
// primary key from the fields tagged pk, else id.
func readBunModel(t types.Type) bunModel {
	var m bunModel
	n, ok := types.Unalias(modelType(t)).(*types.Named)
	if !ok {
		return m
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return m
	}
	m.table = plural(snake(n.Obj().Name()))
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i)).Get("bun")
		if f.Embedded() && isBaseModel(f.Type()) {
			for opt := range strings.SplitSeq(tag, ",") {
				if name, ok := strings.CutPrefix(strings.TrimSpace(opt), "table:"); ok && name != "" {
					m.table = tableName(name)
				}
			}
			continue
		}
		if tag == "-" || !f.Exported() || f.Embedded() {
			continue
		}
		opts := strings.Split(tag, ",")
		col := snake(f.Name())
		if first := strings.TrimSpace(opts[0]); first != "" && !strings.Contains(first, ":") {
			col = strings.ToLower(first)
		}
		m.columns = append(m.columns, col)
		for _, o := range opts[1:] {
			if strings.TrimSpace(o) == "pk" {
				m.primaryKey = append(m.primaryKey, col)
			}
		}
	}
	if len(m.primaryKey) == 0 {
		m.primaryKey = []string{"id"}
	}
	return m
}

// isBaseModel reports whether t is bun.BaseModel (an alias of
// schema.BaseModel).
func isBaseModel(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && strings.HasPrefix(n.Obj().Pkg().Path(), bunPath) && n.Obj().Name() == "BaseModel"
}
