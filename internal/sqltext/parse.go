package sqltext

import "strings"

// Parse reads the first non-empty statement of src; a trailing `;` and
// any further statements are ignored. It never panics.
func Parse(src string) Stmt {
	lx := newLexer(src)
	for lx.pos < len(lx.src) {
		if toks := lx.statement(); len(toks) > 0 {
			return parse(lx.src, toks)
		}
	}
	return Stmt{}
}

// ParseAll splits src on semicolons outside quotes, comments and
// dollar-quoted strings and parses each non-empty statement.
func ParseAll(src string) []Stmt {
	lx := newLexer(src)
	var out []Stmt
	for lx.pos < len(lx.src) {
		if toks := lx.statement(); len(toks) > 0 {
			out = append(out, parse(lx.src, toks))
		}
	}
	return out
}

// parser holds one statement's tokens. Clauses are found by walking one
// nesting level with step, which jumps over bracketed groups; that keeps
// every walk linear and needs no recursion however deep the nesting.
type parser struct {
	src  string
	toks []token
}

// newParser links each '(' and '[' to its closing bracket (or to
// len(toks) if it is never closed) through token.aux, using the open
// brackets' aux fields as the stack so that no memory is allocated.
func newParser(src string, toks []token) *parser {
	top := int32(-1)
	for i := range toks {
		t := &toks[i]
		if t.kind != tPunct {
			continue
		}
		switch src[t.start] {
		case '(', '[':
			t.aux, top = top, int32(i)
		case ')', ']':
			if top >= 0 {
				top, toks[top].aux = toks[top].aux, int32(i)
			}
		}
	}
	for top >= 0 {
		top, toks[top].aux = toks[top].aux, int32(len(toks))
	}
	return &parser{src: src, toks: toks}
}

// str returns token i as written.
func (p *parser) str(i int) string { return p.src[p.toks[i].start:p.toks[i].end] }

// closer returns the index of the bracket closing the '(' or '[' at i.
func (p *parser) closer(i int) int { return int(p.toks[i].aux) }

// step returns the index of the next token at the same level as i.
func (p *parser) step(i int) int {
	if p.toks[i].kind == tPunct && p.closer(i) > i {
		return min(p.closer(i)+1, len(p.toks))
	}
	return i + 1
}

// group reports whether [lo, hi) is exactly one parenthesised group.
func (p *parser) group(lo, hi int) bool {
	return p.punct(lo, "(") && p.closer(lo) == hi-1
}

// is reports whether token i is the keyword word (given in upper case).
// It is the innermost test of every scan, so lengths are compared first.
func (p *parser) is(i int, word string) bool {
	if i < 0 || i >= len(p.toks) {
		return false
	}
	t := p.toks[i]
	return t.kind == tWord && int(t.end-t.start) == len(word) && strings.EqualFold(p.src[t.start:t.end], word)
}

func (p *parser) isAny(i int, words ...string) bool {
	for _, w := range words {
		if p.is(i, w) {
			return true
		}
	}
	return false
}

func (p *parser) punct(i int, s string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tPunct && p.str(i) == s
}

func (p *parser) op(i int, s string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tOp && p.str(i) == s
}

func (p *parser) isName(i int) bool {
	return i >= 0 && i < len(p.toks) && (p.toks[i].kind == tWord || p.toks[i].kind == tQuoted)
}

// seek returns the first index in [i, hi) at i's level holding one of
// words, or hi. Words inside CASE ... END do not count (CASE WHEN would
// otherwise end a MERGE clause), nor does FROM after IS [NOT] DISTINCT.
func (p *parser) seek(i, hi int, words ...string) int {
	cases := 0
	distinct := false
	for ; i < hi; i = p.step(i) {
		switch {
		case p.is(i, "CASE"):
			cases++
		case p.is(i, "END") && cases > 0:
			cases--
		case cases == 0 && p.isAny(i, words...) && !(distinct && p.is(i, "FROM")):
			return i
		}
		distinct = p.is(i, "DISTINCT")
	}
	return hi
}

// comma returns the first ',' in [i, hi) at i's level, or hi.
func (p *parser) comma(i, hi int) int {
	for ; i < hi; i = p.step(i) {
		if p.punct(i, ",") {
			return i
		}
	}
	return hi
}

// name reads a possibly qualified name at i and returns its last part,
// unquoted and lower-cased, and the index after it; "" if there is none.
func (p *parser) name(i, hi int) (string, int) {
	if i >= hi || !p.isName(i) {
		return "", i
	}
	last := p.ident(i)
	i++
	for i+1 < hi && p.punct(i, ".") && p.isName(i+1) {
		last = p.ident(i + 1)
		i += 2
	}
	return last, i
}

// notAlias are words that can follow a table name but are not its alias.
var notAlias = []string{
	"SET", "USING", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "STRAIGHT_JOIN",
	"ON", "WHERE", "FROM", "WITH", "OUTPUT", "PARTITION",
}

// alias reads an optional [AS] alias after a table name and returns it
// lower-cased ("" if none) and the index after it.
func (p *parser) alias(i, hi int) (string, int) {
	if p.is(i, "AS") && i+1 < hi && p.isName(i+1) {
		return p.ident(i + 1), i + 2
	}
	if i < hi && p.isName(i) && !p.isAny(i, notAlias...) {
		return p.ident(i), i + 1
	}
	return "", i
}

// names reads a comma-separated list of names, such as a column list.
func (p *parser) names(lo, hi int) []string {
	var out []string
	for i := lo; i < hi; i = p.comma(i, hi) + 1 {
		if n, _ := p.name(i, hi); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// ident returns name token i unquoted and lower-cased.
func (p *parser) ident(i int) string {
	s := p.str(i)
	if p.toks[i].kind != tQuoted {
		return strings.ToLower(s)
	}
	q := s[:1]
	if q == "[" {
		q = "]"
	}
	s = strings.TrimSuffix(s[1:], q)
	return strings.ToLower(strings.ReplaceAll(s, q+q, q))
}

// otherVerbs start statements that are recognised but not described.
var otherVerbs = map[string]bool{
	"ABORT": true, "ALTER": true, "ANALYZE": true, "ANALYSE": true, "ATTACH": true,
	"BEGIN": true, "CALL": true, "CHECKPOINT": true, "CLOSE": true, "CLUSTER": true,
	"COMMENT": true, "COMMIT": true, "COPY": true, "CREATE": true, "DEALLOCATE": true,
	"DECLARE": true, "DESC": true, "DESCRIBE": true, "DETACH": true, "DISCARD": true,
	"DO": true, "DROP": true, "END": true, "EXEC": true, "EXECUTE": true, "EXPLAIN": true,
	"FETCH": true, "FLUSH": true, "GRANT": true, "HANDLER": true, "IMPORT": true,
	"KILL": true, "LISTEN": true, "LOAD": true, "LOCK": true, "MOVE": true, "NOTIFY": true,
	"OPTIMIZE": true, "PRAGMA": true, "PREPARE": true, "REFRESH": true, "REINDEX": true,
	"RELEASE": true, "RENAME": true, "REPAIR": true, "RESET": true, "REVOKE": true,
	"ROLLBACK": true, "SAVEPOINT": true, "SET": true, "SHOW": true, "START": true,
	"TRUNCATE": true, "UNLISTEN": true, "UNLOCK": true, "USE": true, "VACUUM": true,
}

// mainVerbs are the verbs that can follow a WITH clause.
var mainVerbs = []string{"SELECT", "INSERT", "UPSERT", "UPDATE", "DELETE", "MERGE", "REPLACE", "VALUES", "TABLE"}

// whereStops end a WHERE clause.
var whereStops = []string{
	"GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "FETCH", "FOR", "LOCK",
	"UNION", "INTERSECT", "EXCEPT", "WINDOW", "RETURNING",
}

func parse(src string, toks []token) Stmt {
	st := Stmt{Placeholders: numberParams(src, toks)}
	for _, t := range toks {
		if t.kind == tParam && t.end > t.start {
			st.PlaceholderStyle = src[t.start : t.start+1]
			break
		}
	}
	p := newParser(src, toks)
	lo := 0
	// A statement wrapped in parentheses, as in (SELECT ...) UNION ...,
	// is read from its first group only; its WHERE then covers one branch.
	partial := p.punct(0, "(") && p.closer(0) < len(toks)-1
	for p.punct(lo, "(") {
		hi := p.closer(lo)
		p.toks = p.toks[:hi]
		lo++
	}
	hi := len(p.toks)
	if p.is(lo, "WITH") {
		lo = p.seek(lo+1, hi, mainVerbs...)
	}
	if lo >= hi || p.toks[lo].kind != tWord {
		return st
	}
	switch verb := strings.ToUpper(p.str(lo)); verb {
	case "SELECT", "VALUES", "TABLE":
		st.Kind = Select
		p.selectStmt(&st, lo, hi)
	case "INSERT", "UPSERT", "REPLACE":
		st.Kind = Insert
		switch verb {
		case "UPSERT":
			st.OnConflict = "update"
		case "REPLACE":
			st.Kind = Replace
		}
		p.insert(&st, lo+1, hi)
	case "UPDATE":
		st.Kind = Update
		p.update(&st, lo+1, hi)
	case "DELETE":
		st.Kind = Delete
		p.delete(&st, lo+1, hi)
	case "MERGE":
		st.Kind = Merge
		p.merge(&st, lo+1, hi)
	default:
		if otherVerbs[verb] {
			st.Kind = Other
		}
		return st
	}
	st.Returning = p.seek(lo, hi, "RETURNING") < hi
	st.WhereOpaque = st.WhereOpaque || partial && st.HasWhere
	p.locking(&st)
	return st
}

func (p *parser) selectStmt(st *Stmt, kw, hi int) {
	if p.is(kw, "TABLE") {
		st.Table, _ = p.name(kw+1, hi)
		return
	}
	if f := p.seek(kw+1, hi, "FROM"); f < hi {
		i := f + 1
		if p.isAny(i, "ONLY", "LATERAL") {
			i++
		}
		st.Table, _ = p.name(i, hi)
	}
	if w := p.seek(kw+1, hi, "WHERE"); w < hi {
		p.where(st, w+1, p.seek(w+1, hi, whereStops...))
		// The conjuncts describe one branch of a set operation only.
		if p.seek(kw+1, hi, "UNION", "INTERSECT", "EXCEPT") < hi {
			st.WhereOpaque = true
		}
	}
}

func (p *parser) insert(st *Stmt, i, hi int) {
	for ; i < hi; i++ {
		if p.is(i, "IGNORE") {
			st.OnConflict = "nothing"
		} else if p.is(i, "OR") { // SQLite INSERT OR IGNORE / OR REPLACE / OR ABORT ...
			i++
			if p.is(i, "IGNORE") {
				st.OnConflict = "nothing"
			} else if p.is(i, "REPLACE") {
				st.OnConflict = "update"
			}
		} else if !p.isAny(i, "INTO", "LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY") {
			break
		}
	}
	st.Table, i = p.name(i, hi)
	self := []string{st.Table}
	if p.is(i, "AS") { // PostgreSQL INSERT INTO t AS alias
		var alias string
		alias, i = p.alias(i, hi)
		self = append(self, alias)
	}
	if p.punct(i, "(") && !p.isAny(i+1, "SELECT", "WITH", "VALUES") {
		st.Columns = p.names(i+1, p.closer(i))
		i = p.step(i)
	}
	if p.isAny(i, "VALUES", "VALUE") && p.punct(i+1, "(") && !p.punct(p.step(i+1), ",") {
		for _, v := range p.tuple(i+1, p.step(i+1)) {
			st.Values = append(st.Values, p.operand(v[0], v[1]))
		}
		i = p.step(i + 1)
	}
	if p.is(i, "SET") { // MySQL INSERT ... SET a = 1, b = 2
		end := p.seek(i+1, hi, "ON", "RETURNING")
		for _, a := range p.assigns(i+1, end, nil) {
			st.Columns = append(st.Columns, a.Column)
		}
		i = end
	}
	// ON also introduces join conditions of INSERT ... SELECT; only ON
	// CONFLICT and ON DUPLICATE KEY UPDATE matter.
	for on := p.seek(i, hi, "ON"); on < hi; on = p.seek(on+1, hi, "ON") {
		if p.is(on+1, "CONFLICT") {
			p.onConflict(st, on+2, hi, self)
			return
		}
		if p.is(on+1, "DUPLICATE") && p.is(on+2, "KEY") && p.is(on+3, "UPDATE") {
			st.OnConflict = "update"
			st.Set = p.assigns(on+4, p.seek(on+4, hi, "RETURNING"), self)
			return
		}
	}
}

// onConflict reads the rest of ON CONFLICT [target] DO ...; the target's
// own WHERE is an index predicate, not a condition on the write.
func (p *parser) onConflict(st *Stmt, i, hi int, self []string) {
	if p.punct(i, "(") {
		st.ConflictTarget = p.names(i+1, p.closer(i))
	}
	do := p.seek(i, hi, "DO")
	switch {
	case p.is(do+1, "NOTHING"):
		st.OnConflict = "nothing"
	case p.is(do+1, "UPDATE") && p.is(do+2, "SET"):
		st.OnConflict = "update"
		end := p.seek(do+3, hi, "WHERE", "RETURNING")
		st.Set = p.assigns(do+3, end, self)
		if p.is(end, "WHERE") {
			p.where(st, end+1, p.seek(end+1, hi, "RETURNING"))
		}
	}
}

func (p *parser) update(st *Stmt, i, hi int) {
	for p.isAny(i, "LOW_PRIORITY", "IGNORE", "ONLY") {
		i++
	}
	if p.is(i, "OR") { // SQLite UPDATE OR REPLACE ...
		i += 2
	}
	if p.is(i, "TOP") && i+1 < hi { // SQL Server UPDATE TOP (n)
		i = p.step(i + 1)
	}
	st.Table, i = p.name(i, hi)
	alias, i := p.alias(i, hi)
	set := p.seek(i, hi, "SET")
	if set >= hi {
		return
	}
	end := p.seek(set+1, hi, "FROM", "WHERE", "RETURNING", "ORDER", "LIMIT", "OUTPUT")
	st.Set = p.assigns(set+1, end, []string{st.Table, alias})
	if w := p.seek(end, hi, "WHERE"); w < hi {
		p.where(st, w+1, p.seek(w+1, hi, whereStops...))
	}
}

func (p *parser) delete(st *Stmt, i, hi int) {
	for p.isAny(i, "LOW_PRIORITY", "QUICK", "IGNORE") {
		i++
	}
	if p.is(i, "TOP") && i+1 < hi {
		i = p.step(i + 1)
	}
	if p.is(i, "FROM") {
		i++
		if p.is(i, "ONLY") {
			i++
		}
		st.Table, i = p.name(i, hi)
	} else { // MySQL DELETE t1 FROM t1 JOIN ..., SQL Server DELETE t
		st.Table, i = p.name(i, hi)
		if f := p.seek(i, hi, "FROM"); f < hi {
			st.Table = p.resolve(st.Table, f+1, p.seek(f+1, hi, "WHERE"))
			i = f + 1
		}
	}
	if w := p.seek(i, hi, "WHERE"); w < hi {
		p.where(st, w+1, p.seek(w+1, hi, whereStops...))
	}
}

// resolve returns the table that target names in the table list
// [lo, hi): the table itself or the one it aliases.
func (p *parser) resolve(target string, lo, hi int) string {
	for i := lo; i < hi; {
		if !p.isName(i) {
			i = p.step(i)
			continue
		}
		table, j := p.name(i, hi)
		if p.is(j, "AS") {
			j++
		}
		if table == target || j < hi && p.isName(j) && p.ident(j) == target {
			return table
		}
		i = j
	}
	return target
}

// merge reads MERGE INTO t USING s ON c WHEN ... THEN .... The ON
// condition is a join, not a filter; the AND condition of the WHEN clause
// that updates is what makes the update conditional.
func (p *parser) merge(st *Stmt, i, hi int) {
	for p.isAny(i, "INTO", "ONLY") {
		i++
	}
	st.Table, i = p.name(i, hi)
	alias, i := p.alias(i, hi)
	self := []string{st.Table, alias}
	updates := 0
	for when := p.seek(i, hi, "WHEN"); when < hi; {
		next := p.seek(when+1, hi, "WHEN")
		then := p.seek(when+1, next, "THEN")
		act := then + 1
		switch {
		case p.is(act, "UPDATE") && p.is(act+1, "SET"):
			st.Set = append(st.Set, p.assigns(act+2, next, self)...)
			updates++
			if and := p.seek(when+1, then, "AND"); and < then && !st.HasWhere {
				p.where(st, and+1, then)
			}
		case p.is(act, "INSERT") && p.punct(act+1, "(") && st.Columns == nil:
			st.Columns = p.names(act+2, p.closer(act+1))
		}
		when = next
	}
	if updates > 1 && st.HasWhere {
		st.WhereOpaque = true
	}
}

// locking finds the first row-locking clause at any depth.
func (p *parser) locking(st *Stmt) {
	for i := range p.toks {
		if p.is(i, "LOCK") && p.is(i+1, "IN") && p.is(i+2, "SHARE") && p.is(i+3, "MODE") {
			st.Locking = "LOCK IN SHARE MODE"
			return
		}
		if !p.is(i, "FOR") {
			continue
		}
		j := i + 1
		switch {
		case p.is(j, "UPDATE"):
			st.Locking, j = "FOR UPDATE", j+1
		case p.is(j, "SHARE"):
			st.Locking, j = "FOR SHARE", j+1
		case p.is(j, "NO") && p.is(j+1, "KEY") && p.is(j+2, "UPDATE"):
			st.Locking, j = "FOR NO KEY UPDATE", j+3
		case p.is(j, "KEY") && p.is(j+1, "SHARE"):
			st.Locking, j = "FOR KEY SHARE", j+2
		default:
			continue
		}
		if p.is(j, "OF") { // OF t1, s.t2
			j++
			for p.isName(j) && !p.isAny(j, "NOWAIT", "SKIP") || p.punct(j, ".") || p.punct(j, ",") {
				j++
			}
		}
		st.NoWait = p.is(j, "NOWAIT")
		st.SkipLocked = p.is(j, "SKIP") && p.is(j+1, "LOCKED")
		return
	}
}
