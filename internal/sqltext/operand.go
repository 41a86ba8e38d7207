package sqltext

import (
	"slices"
	"strings"
)

// literalWords are keyword literals.
var literalWords = []string{"NULL", "TRUE", "FALSE", "UNKNOWN"}

// valueWords are keywords that read like column names but compute values.
var valueWords = []string{
	"CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "LOCALTIMESTAMP", "LOCALTIME",
	"CURRENT_USER", "SESSION_USER", "USER", "DEFAULT",
}

// operand classifies [lo, hi) and keeps its text.
func (p *parser) operand(lo, hi int) Operand {
	if lo >= hi {
		return Operand{}
	}
	o := Operand{Kind: OpExpr, Text: p.text(lo, hi)}
	a, b := p.core(lo, hi)
	if a >= b {
		return o
	}
	t := p.toks[a]
	switch {
	case b-a == 1 && t.kind == tParam:
		o.Kind, o.Placeholder, o.Name = OpPlaceholder, int(t.aux), paramName(p.str(a))
	case b-a == 1 && (t.kind == tString || t.kind == tNumber || p.isAny(a, literalWords...)):
		o.Kind = OpLiteral
	case b-a == 2 && (p.op(a, "-") || p.op(a, "+")) && p.toks[a+1].kind == tNumber:
		o.Kind = OpLiteral
	case b-a == 2 && t.kind == tWord && p.toks[a+1].kind == tString: // DATE '...', _utf8mb4'...'
		o.Kind = OpLiteral
	default:
		if col, j := p.column(a, b); col != "" && j == b {
			o.Kind = OpColumn
		}
	}
	return o
}

// core strips what does not change an operand's kind: redundant
// parentheses, trailing ::type casts and CAST(x AS type). IN lists are
// parenthesised too, so IN (?) reads as the placeholder it holds.
func (p *parser) core(lo, hi int) (int, int) {
	for lo < hi {
		switch {
		case p.group(lo, hi):
			lo, hi = lo+1, hi-1
		case p.is(lo, "CAST") && p.group(lo+1, hi):
			lo, hi = lo+2, p.seek(lo+2, hi-1, "AS")
		default:
			c := p.castAt(lo, hi)
			if c < 0 {
				return lo, hi
			}
			hi = c
		}
	}
	return lo, hi
}

// castAt returns the index of the first top-level :: in [lo, hi) if all
// that follows it is a type name, or -1.
func (p *parser) castAt(lo, hi int) int {
	c := -1
	for i := lo; i < hi; i = p.step(i) {
		t := p.toks[i]
		switch {
		case c < 0:
			if p.op(i, "::") {
				c = i
			}
		case t.kind == tWord || t.kind == tQuoted || p.op(i, "::") ||
			p.punct(i, ".") || p.punct(i, "(") || p.punct(i, "["):
		default:
			return -1
		}
	}
	return c
}

// text rebuilds [lo, hi) with one space wherever the source had
// whitespace or comments.
func (p *parser) text(lo, hi int) string {
	if hi-lo == 1 {
		return p.str(lo)
	}
	var b strings.Builder
	for i := lo; i < hi; i++ {
		if i > lo && p.toks[i].space {
			b.WriteByte(' ')
		}
		b.WriteString(p.str(i))
	}
	return b.String()
}

// assigns reads a SET list. self holds the names by which the target
// table's current row can be qualified (its name and alias); columns
// qualified otherwise, as EXCLUDED.x or a MySQL row alias, are another
// row's.
func (p *parser) assigns(lo, hi int, self []string) []Assign {
	var out []Assign
	for i := lo; i < hi; {
		end := p.comma(i, hi)
		out = p.assign(out, i, end, self)
		i = end + 1
	}
	return out
}

func (p *parser) assign(out []Assign, lo, hi int, self []string) []Assign {
	if !p.punct(lo, "(") {
		col, j := p.name(lo, hi)
		if col == "" || !p.op(j, "=") || j >= hi {
			return out
		}
		return append(out, Assign{Column: col, Value: p.operand(j+1, hi), RefsSelf: p.refs(j+1, hi, self)[col]})
	}
	// (a, b) = (x, y) pairs up; (a, b) = (SELECT ...) gives every column
	// the whole right-hand side, computed once to stay linear.
	eq := p.step(lo)
	if eq >= hi || !p.op(eq, "=") {
		return out
	}
	cols := p.names(lo+1, p.closer(lo))
	vals := p.tuple(eq+1, hi)
	whole, refs := p.operand(eq+1, hi), p.refs(eq+1, hi, self)
	for k, c := range cols {
		a := Assign{Column: c, Value: whole, RefsSelf: refs[c]}
		if len(vals) == len(cols) {
			v := vals[k]
			a.Value, a.RefsSelf = p.operand(v[0], v[1]), p.refs(v[0], v[1], self)[c]
		}
		out = append(out, a)
	}
	return out
}

// tuple splits a [ROW] (x, y, ...) value list into item ranges; nil if
// [lo, hi) is not one.
func (p *parser) tuple(lo, hi int) [][2]int {
	if p.is(lo, "ROW") {
		lo++
	}
	if !p.group(lo, hi) || p.is(lo+1, "SELECT") {
		return nil
	}
	var out [][2]int
	for i := lo + 1; i < hi-1; {
		end := p.comma(i, hi-1)
		out = append(out, [2]int{i, end})
		i = end + 1
	}
	return out
}

// refs returns the lower-cased names of the target's columns that [lo, hi)
// reads: unqualified or qualified by one of self. Function names, cast
// types and MySQL VALUES(x), the proposed row, are left out.
func (p *parser) refs(lo, hi int, self []string) map[string]bool {
	m := map[string]bool{}
	for i := lo; i < hi; {
		if p.is(i, "VALUES") && p.punct(i+1, "(") {
			i = p.step(i + 1)
			continue
		}
		if !p.isName(i) || i > lo && p.op(i-1, "::") {
			i++
			continue
		}
		qual, last := "", p.ident(i)
		j := i + 1
		for j+1 < hi && p.punct(j, ".") && p.isName(j+1) {
			qual, last = last, p.ident(j+1)
			j += 2
		}
		if !p.punct(j, "(") && (qual == "" || slices.Contains(self, qual)) {
			m[last] = true
		}
		i = j
	}
	return m
}
