package sqltext

import "strings"

// Unique is a set of columns whose values a table holds at most once: a
// primary key, a UNIQUE constraint or index, or an EXCLUDE constraint (which
// refuses a row that conflicts with another on all of Columns).
type Unique struct {
	Table   string   // unqualified, lower-cased
	Name    string   // the constraint's or index's name, lower-cased; "" when unnamed
	Columns []string // lower-cased, in order
	Primary bool
	Exclude bool
	Where   string // a partial index's predicate, as written; "" when none
	// Generated: the key is one column the database fills itself (serial,
	// AUTO_INCREMENT, IDENTITY, a DEFAULT that draws a UUID), so an INSERT
	// that leaves it out never repeats it.
	Generated bool
}

// Change is what one DDL statement does to a schema's unique keys: it adds
// Add, or drops the index or constraint named Drop, or the table DropTable.
type Change struct {
	Add       *Unique
	Drop      string
	DropTable string
}

// DDL reads the changes to unique keys that the statements of src make:
// CREATE TABLE (column and table constraints), CREATE UNIQUE INDEX, ALTER
// TABLE … ADD and DROP CONSTRAINT, DROP INDEX and DROP TABLE, in the
// PostgreSQL, MySQL and SQLite spellings. Everything else is skipped. Like
// Parse it never panics and runs in time linear in src.
func DDL(src string) []Change {
	lx := newLexer(src)
	var out []Change
	for lx.pos < len(lx.src) {
		if toks := lx.statement(); len(toks) > 0 {
			out = newParser(lx.src, toks).ddl(out)
		}
	}
	return out
}

func (p *parser) ddl(out []Change) []Change {
	n := len(p.toks)
	switch {
	case p.is(0, "CREATE"):
		i := 1
		if p.is(i, "OR") && p.is(i+1, "REPLACE") {
			i += 2
		}
		for p.isAny(i, "TEMP", "TEMPORARY", "UNLOGGED", "GLOBAL", "LOCAL") {
			i++
		}
		switch {
		case p.is(i, "TABLE"):
			return p.createTable(out, p.skipIf(i+1, "IF", "NOT", "EXISTS"), n)
		case p.is(i, "UNIQUE") && p.is(i+1, "INDEX"):
			return p.createIndex(out, i+2, n)
		}
	case p.is(0, "ALTER") && p.is(1, "TABLE"):
		i := p.skipIf(2, "IF", "EXISTS")
		if p.is(i, "ONLY") {
			i++
		}
		table, j := p.name(i, n)
		if table == "" {
			return out
		}
		for a := j; a < n; {
			b := p.comma(a, n)
			out = p.alterAction(out, table, a, b)
			a = b + 1
		}
	case p.is(0, "DROP") && p.isAny(1, "INDEX", "TABLE"):
		i := p.skipIf(p.skipIf(2, "CONCURRENTLY"), "IF", "EXISTS")
		for a := i; a < n; a = p.comma(a, n) + 1 {
			name, _ := p.name(a, n)
			switch {
			case name == "":
			case p.is(1, "TABLE"):
				out = append(out, Change{DropTable: name})
			default:
				out = append(out, Change{Drop: name})
			}
		}
	}
	return out
}

// skipIf returns the index after words when they start at i, else i.
func (p *parser) skipIf(i int, words ...string) int {
	for k, w := range words {
		if !p.is(i+k, w) {
			return i
		}
	}
	return i + len(words)
}

func (p *parser) createTable(out []Change, i, n int) []Change {
	table, j := p.name(i, n)
	if table == "" || !p.punct(j, "(") {
		return out // CREATE TABLE … AS, LIKE
	}
	end := p.closer(j)
	generated := map[string]bool{}
	first := len(out)
	for a := j + 1; a < end; {
		b := p.comma(a, end)
		if col, _ := p.name(a, b); col != "" && p.generates(a, b) {
			generated[col] = true
		}
		if u := p.tableElement(table, a, b); u != nil {
			out = append(out, Change{Add: u})
		}
		a = b + 1
	}
	for _, c := range out[first:] {
		if c.Add.Primary && len(c.Add.Columns) == 1 && generated[c.Add.Columns[0]] {
			c.Add.Generated = true
		}
	}
	return out
}

// generates reports whether the column definition [a, b) has the database
// fill the column: a serial type, AUTO_INCREMENT, IDENTITY, AUTOINCREMENT
// or a DEFAULT calling a UUID function.
func (p *parser) generates(a, b int) bool {
	for i := a + 1; i < b; i = p.step(i) {
		switch {
		case p.isAny(i, "SERIAL", "BIGSERIAL", "SMALLSERIAL", "SERIAL4", "SERIAL8", "AUTO_INCREMENT", "AUTOINCREMENT", "IDENTITY"):
			return true
		case p.is(i, "DEFAULT") && i+1 < b && p.isName(i+1):
			if f := strings.ToLower(p.str(i + 1)); strings.Contains(f, "uuid") || strings.Contains(f, "nextval") {
				return true
			}
		}
	}
	return false
}

// tableElement reads one element of a table definition, or what ALTER
// TABLE … ADD adds: a table constraint, or a column defined UNIQUE or
// PRIMARY KEY.
func (p *parser) tableElement(table string, a, b int) *Unique {
	name := ""
	if p.is(a, "CONSTRAINT") && p.isName(a+1) {
		name, a = p.ident(a+1), a+2
	}
	u := &Unique{Table: table, Name: name}
	switch {
	case p.is(a, "PRIMARY") && p.is(a+1, "KEY"):
		u.Primary = true
		return p.keyColumns(u, a+2, b)
	case p.is(a, "UNIQUE"):
		i := a + 1
		if p.isAny(i, "KEY", "INDEX") {
			i++
		}
		if p.isName(i) && !p.isAny(i, "NULLS", "USING") {
			if u.Name == "" {
				u.Name = p.ident(i)
			}
			i++
		}
		return p.keyColumns(u, i, b)
	case p.is(a, "EXCLUDE"):
		u.Exclude = true
		return p.excludeColumns(u, a+1, b)
	case p.isAny(a, "KEY", "INDEX", "FOREIGN", "CHECK", "FULLTEXT", "SPATIAL", "LIKE", "PERIOD"):
		return nil
	}
	col, i := p.name(a, b)
	if col == "" {
		return nil
	}
	for ; i < b; i = p.step(i) {
		switch {
		case p.is(i, "PRIMARY") && p.is(i+1, "KEY"):
			u.Primary = true
			u.Columns = []string{col}
			return u
		case p.is(i, "UNIQUE"):
			u.Columns = []string{col}
			return u
		}
	}
	return nil
}

// keyColumns reads the parenthesised column list that follows i (after an
// optional USING method or NULLS NOT DISTINCT) into u.
func (p *parser) keyColumns(u *Unique, i, b int) *Unique {
	for i < b && !p.punct(i, "(") {
		i++
	}
	if i >= b {
		return nil
	}
	cols, ok := p.indexColumns(i)
	if !ok {
		return nil
	}
	u.Columns = cols
	return u
}

// indexColumns reads the column names of the index element list opened at
// i: `(a, b DESC, c(10))`. An expression element (lower(email)) makes it
// unreadable.
func (p *parser) indexColumns(i int) ([]string, bool) {
	end := p.closer(i)
	var cols []string
	for a := i + 1; a < end; {
		b := p.comma(a, end)
		col, j := p.name(a, b)
		if col == "" {
			return nil, false
		}
		if j < b && p.punct(j, "(") && !p.isNumberGroup(j) {
			return nil, false // a function call, not a column
		}
		cols = append(cols, col)
		a = b + 1
	}
	return cols, len(cols) > 0
}

// isNumberGroup reports whether the group opened at i holds one number: a
// MySQL prefix length, name(10).
func (p *parser) isNumberGroup(i int) bool {
	return p.closer(i) == i+2 && p.toks[i+1].kind == tNumber
}

// excludeColumns reads EXCLUDE [USING method] (col WITH op, …) [WHERE (…)].
func (p *parser) excludeColumns(u *Unique, i, b int) *Unique {
	for i < b && !p.punct(i, "(") {
		i++
	}
	if i >= b {
		return nil
	}
	end := p.closer(i)
	for a := i + 1; a < end; {
		c := p.comma(a, end)
		col, _ := p.name(a, c)
		if col == "" {
			return nil
		}
		u.Columns = append(u.Columns, col)
		a = c + 1
	}
	if w := p.seek(end+1, b, "WHERE"); w < b {
		u.Where = p.clip(w+1, b)
	}
	if len(u.Columns) == 0 {
		return nil
	}
	return u
}

func (p *parser) createIndex(out []Change, i, n int) []Change {
	i = p.skipIf(p.skipIf(i, "CONCURRENTLY"), "IF", "NOT", "EXISTS")
	name := ""
	if !p.is(i, "ON") {
		name, i = p.name(i, n)
	}
	if !p.is(i, "ON") {
		return out
	}
	i++
	if p.is(i, "ONLY") {
		i++
	}
	table, j := p.name(i, n)
	if table == "" {
		return out
	}
	if p.is(j, "USING") {
		j += 2
	}
	if !p.punct(j, "(") {
		return out
	}
	cols, ok := p.indexColumns(j)
	if !ok {
		return out
	}
	u := &Unique{Table: table, Name: name, Columns: cols}
	if w := p.seek(p.closer(j)+1, n, "WHERE"); w < n {
		u.Where = p.clip(w+1, n)
	}
	return append(out, Change{Add: u})
}

func (p *parser) alterAction(out []Change, table string, a, b int) []Change {
	switch {
	case p.is(a, "ADD"):
		a++
		if p.is(a, "COLUMN") {
			a = p.skipIf(a+1, "IF", "NOT", "EXISTS")
		}
		if u := p.tableElement(table, a, b); u != nil {
			out = append(out, Change{Add: u})
		}
	case p.is(a, "DROP") && p.isAny(a+1, "CONSTRAINT", "INDEX", "KEY"):
		if name, _ := p.name(p.skipIf(a+2, "IF", "EXISTS"), b); name != "" {
			out = append(out, Change{Drop: name})
		}
	}
	return out
}

// clip is text for a range that may be empty.
func (p *parser) clip(lo, hi int) string {
	if lo >= hi {
		return ""
	}
	return p.text(lo, hi)
}
