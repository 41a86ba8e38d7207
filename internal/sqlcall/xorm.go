package sqlcall

import (
	"go/types"
	"reflect"
	"strings"

	"github.com/lockvet/lockvet/internal/sqltext"
)

// xorm's chains start at the engine or a session and name their statement
// at the end: engine.ID(id).Cols("status").Update(&order). The finisher is
// the row that says the kind, and its bean the table and the columns.
var xormPaths = []string{"xorm.io/xorm", "github.com/go-xorm/xorm"}

func addXormRows(add func(chainRow, []string, ...string)) {
	for _, path := range xormPaths {
		x := chainRow{path: path, lib: "xorm"}
		on := func(p part) chainRow { r := x; r.part = p; return r }
		recvs := []string{"Engine", "Session"}
		for name, kind := range map[string]sqltext.Kind{"Update": sqltext.Update, "Insert": sqltext.Insert,
			"InsertOne": sqltext.Insert, "Delete": sqltext.Delete} {
			r := on(partRunBean)
			r.kind = kind
			add(r, recvs, name)
		}
		add(on(partWhere), recvs, "Where")
		add(on(partWhere), []string{"Session"}, "And")
		add(on(partWhereID), recvs, "ID")
		add(on(partTable), recvs, "Table")
		add(on(partSetColumns), recvs, "Cols", "MustCols")
		add(on(partInert), recvs, "AllCols", "NoAutoTime", "UseBool", "Omit", "Limit", "OrderBy", "Desc", "Asc",
			"Context", "NoCache", "Nullable", "Unscoped")
	}
}

// readXormModel reads a bean's type as xorm's default mapper names it: the
// table snake case and singular, or what its TableName method returns when
// that is a constant; each column from the quoted name in its xorm tag, else
// the field's name in snake case; the primary key from the field tagged pk,
// else id.
func (r *Recognizer) readXormModel(t types.Type) bunModel {
	var m bunModel
	n, ok := types.Unalias(modelType(t)).(*types.Named)
	if !ok {
		return m
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return m
	}
	m.table = r.modelTable(t)
	if !r.hasTableName(n) {
		m.table = snake(n.Obj().Name())
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i)).Get("xorm")
		if tag == "-" || !f.Exported() || f.Embedded() || strings.Contains(tag, "<-") || strings.Contains(tag, "extends") {
			continue
		}
		col := snake(f.Name())
		words := strings.Fields(tag)
		for _, w := range words {
			if len(w) > 1 && w[0] == '\'' && w[len(w)-1] == '\'' {
				col = strings.ToLower(w[1 : len(w)-1])
			}
		}
		m.columns = append(m.columns, col)
		for _, w := range words {
			if strings.EqualFold(w, "pk") {
				m.primaryKey = append(m.primaryKey, col)
			}
		}
	}
	if len(m.primaryKey) == 0 {
		m.primaryKey = []string{"id"}
	}
	return m
}

// hasTableName reports whether the type has a TableName method.
func (r *Recognizer) hasTableName(n *types.Named) bool {
	for _, t := range []types.Type{n, types.NewPointer(n)} {
		if sel := types.NewMethodSet(t).Lookup(n.Obj().Pkg(), "TableName"); sel != nil {
			return true
		}
	}
	return false
}
