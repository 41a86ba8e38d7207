package lua

// fact is something a guard establishes for the commands it encloses.
type fact struct {
	owner bool   // GET key == ARGV[arg]; otherwise: key is absent
	key   string // as in val.key
	arg   int
}

// cond is what holds when a condition is true (pos) and when it is false (neg).
type cond struct{ pos, neg []fact }

func (c cond) not() cond { return cond{pos: c.neg, neg: c.pos} }

// findThen returns the index of the `then` closing the condition that starts
// at a, or where the condition evidently stopped. Stopping at any statement
// keyword keeps each token scanned by at most one condition search.
func (s *scanner) findThen(a int) int {
	for j := a; j < len(s.toks); {
		t := s.tok(j)
		switch {
		case t.kind == tPunct && s.match[j] >= 0:
			j = s.after(j)
			continue
		case t.kind == tPunct && (t.text == ")" || t.text == "]" || t.text == "}"):
			return j
		case t.kind == tName:
			switch t.text {
			case "then", "if", "elseif", "else", "end", "do", "for", "while",
				"repeat", "until", "local", "return", "function":
				return j
			}
		}
		j++
	}
	return len(s.toks)
}

// condition evaluates toks[a:b]. A conjunction holds all its terms when
// true; a disjunction negates all its terms when false; a mix is not trusted.
func (s *scanner) condition(a, b, depth int) cond {
	for a < b && s.is(a, "(") && int(s.match[a]) == b-1 {
		a, b = a+1, b-1
	}
	if depth > maxDepth || a >= b {
		return cond{}
	}
	var terms []cond
	var and, or bool
	start := a
	for j := a; j <= b; {
		if j < b && s.tok(j).kind == tPunct && s.match[j] >= 0 {
			j = s.after(j)
			continue
		}
		if name := s.name(j); j == b || name == "and" || name == "or" {
			and = and || name == "and"
			or = or || name == "or"
			if j == b && start == a {
				return s.term(a, b, depth)
			}
			terms = append(terms, s.term(start, j, depth))
			start = j + 1
		}
		j++
	}
	var c cond
	for _, t := range terms {
		switch {
		case and && !or:
			c.pos = append(c.pos, t.pos...)
		case or && !and:
			c.neg = append(c.neg, t.neg...)
		}
	}
	return c
}

func (s *scanner) term(a, b, depth int) cond {
	if a >= b {
		return cond{}
	}
	for j := a; j < b; {
		t := s.tok(j)
		if t.kind == tPunct && s.match[j] >= 0 {
			j = s.after(j)
			continue
		}
		if t.kind == tPunct {
			switch t.text {
			case "==", "~=", "<", ">", "<=", ">=":
				return compare(s.single(a, j, 0), t.text, s.single(j+1, b, 0))
			}
		}
		j++
	}
	if s.name(a) == "not" {
		return s.condition(a+1, b, depth+1).not()
	}
	if s.is(a, "(") && int(s.match[a]) == b-1 {
		return s.condition(a, b, depth+1)
	}
	switch v := s.single(a, b, 0); {
	case isGet(v):
		return cond{neg: []fact{{key: v.key}}} // a GET reply is false exactly when the key is absent
	case v.kind == vProbe && v.anchored:
		return cond{pos: []fact{owns(v)}}
	}
	return cond{}
}

// owns is what a passed prefix test v establishes.
func owns(v val) fact { return fact{owner: true, key: v.key, arg: v.n} }

// probes reports whether v is the side of a comparison that looks at a key.
func probes(v val) bool { return v.kind == vCall || v.kind == vText || v.kind == vProbe }

// compare evaluates l op r for the comparisons lock scripts make: a stored
// value or its prefix against an ARGV token, a GET reply against false/nil,
// and EXISTS or HEXISTS replies against 0 or 1.
func compare(l val, op string, r val) cond {
	if probes(r) && !probes(l) {
		l, r = r, l
		op = mirror(op)
	}
	var c cond
	switch {
	case isStored(l) && r.kind == vArgv:
		c = cond{pos: []fact{{owner: true, key: l.key, arg: r.n}}}
	case l.kind == vProbe && l.cmd != "FIND" && r.kind == vArgv && r.n == l.n,
		l.kind == vProbe && l.cmd == "FIND" && r.kind == vNum && r.n == 1:
		c = cond{pos: []fact{owns(l)}}
	case l.kind == vProbe && l.anchored && r.kind == vFalse && r.str == "nil":
		c = cond{neg: []fact{owns(l)}} // find and match return nil, never false, when nothing matches
	case l.kind == vCall && l.cmd == "GET" && r.kind == vFalse:
		c = cond{pos: []fact{{key: l.key}}}
	case l.kind == vCall && (l.cmd == "EXISTS" || l.cmd == "HEXISTS") && r.kind == vNum:
		when0, when1 := holds(0, op, r.n), holds(1, op, r.n)
		if when0 == when1 {
			return cond{}
		}
		// EXISTS says absent with 0; HEXISTS key ARGV[n] says owner with 1.
		if l.cmd == "EXISTS" {
			c = cond{pos: []fact{{key: l.key}}}
			if !when0 {
				c = c.not()
			}
			return c
		}
		if l.n < 0 {
			return cond{}
		}
		c = cond{pos: []fact{{owner: true, key: l.key, arg: l.n}}}
		if !when1 {
			c = c.not()
		}
		return c
	default:
		return cond{}
	}
	switch op {
	case "==":
		return c
	case "~=":
		return c.not()
	}
	return cond{}
}

// mirror gives the operator that keeps l op r true once l and r swap sides.
func mirror(op string) string {
	switch op {
	case "<":
		return ">"
	case ">":
		return "<"
	case "<=":
		return ">="
	case ">=":
		return "<="
	}
	return op
}

func holds(x int, op string, n int) bool {
	switch op {
	case "==":
		return x == n
	case "~=":
		return x != n
	case "<":
		return x < n
	case ">":
		return x > n
	case "<=":
		return x <= n
	case ">=":
		return x >= n
	}
	return false
}
