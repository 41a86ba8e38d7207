package sqltext

import "strings"

// compareOps maps the comparison operators a conjunct may use to their
// reported spelling.
var compareOps = map[string]string{
	"=": "=", "==": "=", "<>": "<>", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"<=>": "<=>", "~": "~", "~*": "~*", "!~": "!~", "!~*": "!~*", "@>": "@>", "<@": "<@", "&&": "&&",
}

// flipped gives the operator with its sides swapped, for conjuncts written
// <operand> <op> <column>.
var flipped = map[string]string{
	"=": "=", "<>": "<>", "!=": "!=", "<=>": "<=>", "<": ">", "<=": ">=", ">": "<", ">=": "<=",
}

// predicateWords cannot appear at the top level of a plain operand: they
// mean the conjunct is a compound predicate the operator split misread.
var predicateWords = []string{
	"OR", "XOR", "NOT", "IS", "IN", "LIKE", "ILIKE", "BETWEEN", "SIMILAR", "REGEXP", "RLIKE", "GLOB",
}

// where reads the condition [lo, hi) into st. Parenthesised conjuncts
// are flattened with an explicit stack, so nesting depth costs no Go stack.
func (p *parser) where(st *Stmt, lo, hi int) {
	st.HasWhere = true
	if lo >= hi || p.disjunctive(lo, hi) {
		st.WhereOpaque = true
		return
	}
	type span struct{ i, hi int }
	stack := []span{{lo, hi}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i >= top.hi {
			stack = stack[:len(stack)-1]
			continue
		}
		a := top.i
		b := p.conjunctEnd(a, top.hi)
		top.i = b + 1
		if b+1 == top.hi { // a trailing AND: the text was cut off
			st.WhereOpaque = true
		}
		switch {
		case a == b:
			st.WhereOpaque = true
		case p.group(a, b):
			if a+1 == b-1 || p.disjunctive(a+1, b-1) {
				st.WhereOpaque = true
			} else {
				stack = append(stack, span{a + 1, b - 1})
			}
		default:
			p.conjunct(st, a, b)
		}
	}
}

// disjunctive reports a top-level OR (or MySQL XOR) in [i, hi).
func (p *parser) disjunctive(i, hi int) bool {
	return p.seek(i, hi, "OR", "XOR") < hi
}

// conjunctEnd returns the index of the AND that ends the conjunct starting
// at i, or hi; the AND of BETWEEN x AND y does not end it.
func (p *parser) conjunctEnd(i, hi int) int {
	cases, between := 0, false
	for ; i < hi; i = p.step(i) {
		switch {
		case p.is(i, "CASE"):
			cases++
		case p.is(i, "END") && cases > 0:
			cases--
		case cases > 0:
		case p.is(i, "BETWEEN"):
			between = true
		case p.is(i, "AND"):
			if !between {
				return i
			}
			between = false
		}
	}
	return hi
}

func (p *parser) conjunct(st *Stmt, a, b int) {
	if p.trivial(a, b) {
		return
	}
	c, ok := p.comparison(a, b)
	if !ok {
		st.WhereOpaque = true
		return
	}
	if p.subquery(a, b) {
		st.WhereOpaque = true
	}
	st.Where = append(st.Where, c)
}

// trivial reports the always-true conjuncts query builders start with:
// TRUE and 1 = 1.
func (p *parser) trivial(a, b int) bool {
	if b-a == 1 {
		return p.is(a, "TRUE")
	}
	return b-a == 3 && p.toks[a].kind == tNumber && p.op(a+1, "=") &&
		p.toks[a+2].kind == tNumber && p.str(a) == p.str(a+2)
}

// comparison reads [a, b) as <column> <op> <operand>, or as
// <operand> <op> <column> turned around.
func (p *parser) comparison(a, b int) (Cond, bool) {
	if col, j := p.column(a, b); col != "" {
		if op, k := p.operator(j, b); op != "" && k < b && p.plain(k, b, op) {
			return Cond{Column: col, Op: op, Operand: p.operand(k, b)}, true
		}
	}
	for k := a; k < b; k = p.step(k) {
		if p.toks[k].kind != tOp || compareOps[p.str(k)] == "" {
			continue
		}
		op := flipped[compareOps[p.str(k)]]
		col, j := p.column(k+1, b)
		if op == "" || col == "" || j != b || k == a || !p.plain(a, k, op) {
			return Cond{}, false
		}
		return Cond{Column: col, Op: op, Operand: p.operand(a, k)}, true
	}
	return Cond{}, false
}

// column reads a column reference at i: a name chain that is not a
// keyword value (NULL, CURRENT_TIMESTAMP, ...).
func (p *parser) column(i, hi int) (string, int) {
	if p.isAny(i, literalWords...) || p.isAny(i, valueWords...) {
		return "", i
	}
	return p.name(i, hi)
}

// operator reads the comparison operator at j and returns it and the
// index after it.
func (p *parser) operator(j, hi int) (string, int) {
	if j >= hi {
		return "", j
	}
	if p.toks[j].kind == tOp {
		return compareOps[p.str(j)], j + 1
	}
	not := ""
	if p.is(j, "NOT") {
		not = "NOT "
		j++
	}
	switch {
	case p.isAny(j, "IN", "LIKE", "ILIKE", "BETWEEN", "REGEXP", "RLIKE", "GLOB"):
		return not + strings.ToUpper(p.str(j)), j + 1
	case p.is(j, "SIMILAR") && p.is(j+1, "TO"):
		return not + "SIMILAR TO", j + 2
	case not == "" && p.is(j, "IS"):
		op := "IS"
		j++
		if p.is(j, "NOT") {
			op, j = "IS NOT", j+1
		}
		if p.is(j, "DISTINCT") && p.is(j+1, "FROM") {
			op, j = op+" DISTINCT FROM", j+2
		}
		return op, j
	}
	return "", j
}

// plain reports that [lo, hi) holds no further comparison or logical
// operator at its top level (outside CASE), so the conjunct really is one
// comparison: MySQL's `a = 1 || b = 2` is not. BETWEEN's operand may hold
// one AND.
func (p *parser) plain(lo, hi int, op string) bool {
	ands := 0
	if strings.HasSuffix(op, "BETWEEN") {
		ands = 1
	}
	cases := 0
	for i := lo; i < hi; i = p.step(i) {
		switch {
		case p.is(i, "CASE"):
			cases++
		case p.is(i, "END") && cases > 0:
			cases--
		case cases > 0:
		case p.toks[i].kind == tOp && compareOps[p.str(i)] != "":
			return false
		case p.is(i, "AND"):
			if ands == 0 {
				return false
			}
			ands--
		case p.isAny(i, predicateWords...):
			return false
		}
	}
	return true
}

// subquery reports a SELECT anywhere in [lo, hi).
func (p *parser) subquery(lo, hi int) bool {
	for i := lo; i < hi; i++ {
		if p.is(i, "SELECT") {
			return true
		}
	}
	return false
}
