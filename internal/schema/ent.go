package schema

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"

	"github.com/lockvet/lockvet/internal/sqltext"
)

// entMigrate reports whether path is the schema ent generates for its
// migrations (ent/migrate/schema.go): tables with their columns and
// indexes, as Go values.
func entMigrate(path string) bool {
	return strings.HasSuffix(path, "/migrate/schema.go")
}

// entKeys reads the unique keys of ent's generated migration schema: each
// index marked Unique, each column marked Unique, and the primary key
// (Increment marks it generated). The file is parsed, not type-checked.
func entKeys(src []byte) []sqltext.Change {
	f, err := parser.ParseFile(token.NewFileSet(), "schema.go", src, parser.SkipObjectResolution)
	if err != nil || !importsEntSchema(f) {
		return nil
	}
	type column struct {
		name              string
		unique, increment bool
	}
	columns := map[string][]column{} // by variable
	tables := map[string]*ast.CompositeLit{}
	var order []string
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if i >= len(vs.Values) {
					break
				}
				switch v := vs.Values[i].(type) {
				case *ast.CompositeLit: // []*schema.Column{…}
					for _, elt := range v.Elts {
						lit, ok := elt.(*ast.CompositeLit)
						if !ok {
							continue
						}
						fields := keyed(lit)
						columns[name.Name] = append(columns[name.Name], column{
							name: str(fields["Name"]), unique: ident(fields["Unique"]) == "true",
							increment: ident(fields["Increment"]) == "true",
						})
					}
				case *ast.UnaryExpr: // &schema.Table{…}
					if lit, ok := v.X.(*ast.CompositeLit); ok {
						tables[name.Name] = lit
						order = append(order, name.Name)
					}
				}
			}
		}
	}
	ref := func(e ast.Expr) (column, bool) { // OrdersColumns[1]
		ix, ok := e.(*ast.IndexExpr)
		if !ok {
			return column{}, false
		}
		v, ok1 := ix.X.(*ast.Ident)
		lit, ok2 := ix.Index.(*ast.BasicLit)
		if !ok1 || !ok2 {
			return column{}, false
		}
		n, err := strconv.Atoi(lit.Value)
		if err != nil || n < 0 || n >= len(columns[v.Name]) {
			return column{}, false
		}
		return columns[v.Name][n], true
	}
	refs := func(e ast.Expr) ([]column, bool) {
		lit, ok := e.(*ast.CompositeLit)
		if !ok {
			return nil, false
		}
		var out []column
		for _, elt := range lit.Elts {
			c, ok := ref(elt)
			if !ok {
				return nil, false
			}
			out = append(out, c)
		}
		return out, len(out) > 0
	}
	var out []sqltext.Change
	add := func(u sqltext.Unique) { out = append(out, sqltext.Change{Add: &u}) }
	for _, tv := range order {
		fields := keyed(tables[tv])
		table := strings.ToLower(str(fields["Name"]))
		if table == "" {
			continue
		}
		if cols, ok := refs(fields["PrimaryKey"]); ok {
			u := sqltext.Unique{Table: table, Primary: true, Generated: len(cols) == 1 && cols[0].increment}
			for _, c := range cols {
				u.Columns = append(u.Columns, strings.ToLower(c.name))
			}
			add(u)
		}
		if colsVar, ok := fields["Columns"].(*ast.Ident); ok {
			for _, c := range columns[colsVar.Name] {
				if c.unique {
					add(sqltext.Unique{Table: table, Columns: []string{strings.ToLower(c.name)}})
				}
			}
		}
		indexes, _ := fields["Indexes"].(*ast.CompositeLit)
		if indexes == nil {
			continue
		}
		for _, elt := range indexes.Elts {
			lit, ok := elt.(*ast.CompositeLit)
			if !ok {
				continue
			}
			ix := keyed(lit)
			cols, ok := refs(ix["Columns"])
			if ident(ix["Unique"]) != "true" || !ok {
				continue
			}
			u := sqltext.Unique{Table: table, Name: strings.ToLower(str(ix["Name"]))}
			for _, c := range cols {
				u.Columns = append(u.Columns, strings.ToLower(c.name))
			}
			if _, partial := ix["Annotation"]; partial {
				u.Where = "annotation" // an entsql.IndexWhere predicate: partial, not read
			}
			add(u)
		}
	}
	return out
}

func importsEntSchema(f *ast.File) bool {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"entgo.io/ent/dialect/sql/schema"` {
			return true
		}
	}
	return false
}

// keyed returns a composite literal's Key: Value fields.
func keyed(lit *ast.CompositeLit) map[string]ast.Expr {
	out := map[string]ast.Expr{}
	if lit == nil {
		return out
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok {
				out[k.Name] = kv.Value
			}
		}
	}
	return out
}

func str(e ast.Expr) string {
	if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
		if s, err := strconv.Unquote(lit.Value); err == nil {
			return s
		}
	}
	return ""
}

func ident(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
