package sqltext

import (
	"strconv"
	"strings"
)

// Pin is how a write's WHERE holds the prior state of a column its SET
// changes: whether a second writer, racing the first or repeating it after a
// pause, finds the row as the WHERE expects.
type Pin int

const (
	// Unpinned: the WHERE does not test the column.
	Unpinned Pin = iota
	// Range: the WHERE tests the column without pinning the value it
	// replaces (SET balance = $2 WHERE balance >= 0): a second writer passes
	// the test too, and the first one's change is lost.
	Range
	// Delta: a relative change guarded by its own delta (SET stock = stock
	// - $1 WHERE stock >= $1): no writer takes the column past the bound.
	Delta
	// Order: an ordering the write advances (SET v = $1 WHERE v < $1): a
	// writer with an older value is refused. A fencing token, or a version
	// the caller supplies.
	Order
	// Lease: a lapsed lease taken over (SET locked_until = $1 WHERE
	// locked_until < now()): the first writer's new lease stops the second.
	Lease
	// State: the prior value itself (status = 'PENDING', balance = $old,
	// version = $v, claimed_by IS NULL, or a guard that excludes the value
	// written): after the first write, no other writer finds it.
	State
)

// ColumnPin is how one assigned column is pinned.
type ColumnPin struct {
	Assign Assign
	Pin    Pin
	Cond   Cond // the conjunct that pins it; zero when Unpinned
}

// Pins returns, for each column the SET assigns, the strongest pin the WHERE
// puts on it. For an upsert these are its DO UPDATE part's.
func (st Stmt) Pins() []ColumnPin {
	if st.Kind != Update && st.Kind != Merge && (st.Kind != Insert || st.OnConflict != "update") {
		return nil
	}
	out := make([]ColumnPin, 0, len(st.Set))
	for _, a := range st.Set {
		best := ColumnPin{Assign: a}
		for _, c := range st.Where {
			if c.Column != a.Column {
				continue
			}
			if p := pin(a, c); p > best.Pin {
				best.Pin, best.Cond = p, c
			}
		}
		out = append(out, best)
	}
	return out
}

// CompareAndSet reports whether the WHERE pins the prior state of something
// the write changes: a second writer finds the row moved on, or, for a
// guarded relative change, cannot take it past its bound.
func (st Stmt) CompareAndSet() bool {
	for _, p := range st.Pins() {
		if p.Pin >= Delta {
			return true
		}
	}
	return false
}

// AdmitsOne reports whether, of callers racing to make the same change, the
// statement lets only the first change a row: a compare-and-set on the row's
// prior state or a lapsed lease, or an INSERT … ON CONFLICT DO NOTHING.
func (st Stmt) AdmitsOne() bool {
	if st.Kind == Insert && st.OnConflict == "nothing" {
		return true
	}
	for _, p := range st.Pins() {
		if p.Pin == State || p.Pin == Lease {
			return true
		}
	}
	return false
}

// LostUpdate returns the column of a write that tests it without pinning the
// value it replaces, when nothing else the write changes is pinned: the
// shape of a lost update (SET balance = $2 WHERE id = $1 AND balance >= 0).
func (st Stmt) LostUpdate() (ColumnPin, bool) {
	if st.CompareAndSet() {
		return ColumnPin{}, false
	}
	for _, p := range st.Pins() {
		if p.Pin == Range {
			return p, true
		}
	}
	return ColumnPin{}, false
}

// pin says how conjunct c pins the column a assigns.
func pin(a Assign, c Cond) Pin {
	v, o := a.Value, c.Operand
	switch c.Op {
	case "=", "<=>", "IN":
		return State
	case "IS":
		if o.Kind == OpLiteral {
			return State // IS NULL, IS TRUE
		}
	case "<>", "!=", "IS NOT", "IS DISTINCT FROM", "NOT IN":
		// A guard that excludes the value written: only one writer moves
		// the row there.
		if !a.RefsSelf && excludes(c.Op, o.Text, v.Text) {
			return State
		}
	case "<", "<=":
		switch {
		case a.RefsSelf && v.Text != "" && guardsIncrement(a, c):
			return Delta
		case !a.RefsSelf && sameOperand(v, o):
			return Order
		case !a.RefsSelf && isNow(o.Text):
			return Lease
		}
	case ">", ">=":
		if a.RefsSelf && guardsDecrement(a, c) {
			return Delta
		}
	}
	return Range
}

// excludes reports whether a negative test op against operand rules out the
// value written.
func excludes(op, operand, value string) bool {
	if value == "" {
		return false
	}
	if op != "NOT IN" {
		return norm(operand) == norm(value)
	}
	list := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(operand), "("), ")")
	for _, item := range strings.Split(list, ",") {
		if norm(item) == norm(value) {
			return true
		}
	}
	return false
}

func norm(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// sameOperand reports whether the value assigned is the one compared with.
func sameOperand(v, o Operand) bool {
	if v.Kind == OpPlaceholder && o.Kind == OpPlaceholder {
		return v.Placeholder == o.Placeholder && v.Placeholder > 0 && v.Name == o.Name
	}
	return v.Kind != OpUnknown && norm(v.Text) == norm(o.Text)
}

// delta splits a relative assignment col OP d (or t.col OP d) into OP and d.
func delta(a Assign) (op, d string, ok bool) {
	text := strings.TrimSpace(a.Value.Text)
	if i := strings.IndexByte(text, '.'); i > 0 && i < strings.IndexAny(text+" ", " +-") {
		text = text[i+1:] // the target's alias
	}
	for _, name := range []string{a.Column, "`" + a.Column + "`", `"` + a.Column + `"`} {
		if len(text) <= len(name) || !strings.EqualFold(text[:len(name)], name) {
			continue
		}
		rest := strings.TrimSpace(text[len(name):])
		if len(rest) > 1 && (rest[0] == '-' || rest[0] == '+') {
			return rest[:1], strings.TrimSpace(rest[1:]), true
		}
	}
	return "", "", false
}

// guardsDecrement reports a decrement guarded by its own delta: SET stock =
// stock - $1 WHERE stock >= $1, or stock - 1 WHERE stock > 0.
func guardsDecrement(a Assign, c Cond) bool {
	op, d, ok := delta(a)
	if !ok || op != "-" {
		return false
	}
	bound := norm(c.Operand.Text)
	switch c.Op {
	case ">=":
		return bound == norm(d)
	case ">":
		// stock - 1 WHERE stock > 0; with both bound by the caller (gorm's
		// remaining - ? WHERE remaining > ?) the text cannot tell, and a
		// guess would be a false report.
		return norm(d) == "1" && bound == "0" || c.Operand.Kind == OpPlaceholder && isPlaceholder(d)
	}
	return false
}

// isPlaceholder reports whether text is one bind parameter: ?, $1, :name.
func isPlaceholder(text string) bool {
	toks := newLexer(text).statement()
	return len(toks) == 1 && toks[0].kind == tParam
}

// guardsIncrement reports an increment by one guarded by its cap: SET used =
// used + 1 WHERE used < quota.
func guardsIncrement(a Assign, c Cond) bool {
	op, d, ok := delta(a)
	return ok && op == "+" && norm(d) == "1" && c.Op == "<"
}

// isNow reports a time function: the current time as the database reads it.
func isNow(text string) bool {
	switch strings.TrimSuffix(norm(text), "()") {
	case "now", "current_timestamp", "localtimestamp", "utc_timestamp", "sysdate", "getdate",
		"transaction_timestamp", "statement_timestamp", "clock_timestamp", "unix_timestamp":
		return true
	}
	return false
}

// NextPlaceholder spells one more bind parameter the way the statement
// spells its own: $3 after $1 and $2, ? for MySQL and SQLite, :name or @name
// for named ones.
func (st Stmt) NextPlaceholder(name string) string {
	switch st.PlaceholderStyle {
	case "?":
		return "?"
	case ":", "@":
		return st.PlaceholderStyle + name
	}
	return "$" + strconv.Itoa(st.Placeholders+1)
}
