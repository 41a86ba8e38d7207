package lua

import (
	"strconv"
	"strings"
)

// maxDepth bounds recursion into nested expressions, so that hostile input
// such as a million nested parentheses costs linear time and constant stack.
const maxDepth = 12

type vkind uint8

const (
	vUnknown vkind = iota
	vArgv          // ARGV[n]; n is 0 when the index is not a literal
	vKey           // a key name: KEYS[n], any of KEYS, or a literal
	vCall          // the reply of redis.call(cmd, key, …)
	vStr
	vNum
	vFalse // false or nil: what a missing key's GET reply becomes in Lua
	vTrue
	vText   // a GET reply defaulted to a string, as in GET or "": the stored value, never false
	vNeedle // ARGV[n] or "^" .. ARGV[n], followed by constant strings: what a prefix test looks for
	vLen    // the length of ARGV[n]
	vProbe  // string.find, string.match or string.sub of a stored value, testing it against ARGV[n]
)

// val is the little the scan needs to know about an expression's value.
type val struct {
	kind vkind
	cmd  string // vCall: upper-case command name; vProbe: FIND, MATCH or SUB
	key  string // vKey, vCall, vText, vProbe: "K1" for KEYS[1], anyKey, "S:name" for a literal, "?"
	n    int    // vArgv, vNeedle, vLen, vProbe: ARGV index; vNum: the number; vCall: ARGV index of the argument after the key, or -1
	str  string // vStr: the contents; vFalse: which of false and nil
	// vNeedle: the pattern starts with ^; vProbe: a true result alone means
	// the stored value starts with ARGV[n].
	anchored bool
}

const anyKey = "K*" // any of KEYS: KEYS[i], a loop over KEYS, unpack(KEYS)

func keysMatch(a, b string) bool { return a == b || a == anyKey || b == anyKey }

func keyOf(v val) string {
	switch v.kind {
	case vKey:
		return v.key
	case vStr:
		return "S:" + v.str
	}
	return "?"
}

// isGet reports whether v is the value stored at a key, which is what an
// owner comparison must look at. An MGET reply only counts once indexed.
func isGet(v val) bool { return v.kind == vCall && (v.cmd == "GET" || v.cmd == "HGET") }

// isStored reports whether v is the stored value as a string comparison sees it.
func isStored(v val) bool { return isGet(v) || v.kind == vText }

// elem is the value of the loop variable in `for _, x in ipairs(v)`.
func elem(v val) val {
	switch {
	case v.kind == vKey:
		return val{kind: vKey, key: anyKey}
	case v.kind == vCall && v.cmd == "MGET":
		v.cmd = "GET"
		return v
	}
	return val{}
}

func (s *scanner) is(i int, text string) bool {
	return 0 <= i && i < len(s.toks) && s.tok(i).kind != tString && s.tok(i).text == text
}

func (s *scanner) name(i int) string {
	if i < len(s.toks) && s.tok(i).kind == tName {
		return s.tok(i).text
	}
	return ""
}

// after returns the index just past the bracket group opening at i; an
// unclosed group runs to the end.
func (s *scanner) after(i int) int {
	if m := s.match[i]; m >= 0 {
		return int(m) + 1
	}
	return len(s.toks)
}

// inner returns the range of tokens inside the bracket group opening at i.
func (s *scanner) inner(i int) (int, int) {
	if m := s.match[i]; m >= 0 {
		return i + 1, int(m)
	}
	return i + 1, len(s.toks)
}

// single is the value of toks[a:b] if it is exactly one operand: anything
// else, such as a concatenation, is unknown.
func (s *scanner) single(a, b, depth int) val {
	if a >= b {
		return val{}
	}
	v, end := s.operand(a, depth)
	if end != b {
		return val{}
	}
	return v
}

// value is the value of toks[a:b] if it is one operand, possibly extended.
func (s *scanner) value(a, b, depth int) val {
	if a >= b {
		return val{}
	}
	v, end := s.operand(a, depth)
	if v, end = s.extend(v, end, depth); end != b {
		return val{}
	}
	return v
}

// extend reads the two binary expressions prefix tests are built from, after
// the operand v that ends at i: a needle concatenated from ARGV[n], and a GET
// reply defaulted to a string so that string functions accept it.
func (s *scanner) extend(v val, i, depth int) (val, int) {
	switch {
	case s.is(i, ".."):
		return s.needle(v, i, depth)
	case s.is(i, "or") && isGet(v):
		if d, end := s.operand(i+1, depth); d.kind == vStr && !s.isBinary(end) {
			return val{kind: vText, key: v.key}, end
		}
	}
	return v, i
}

// operand reads one primary expression with its suffixes starting at i, and
// returns it with the index after it.
func (s *scanner) operand(i, depth int) (val, int) {
	if i >= len(s.toks) {
		return val{}, i
	}
	t := s.tok(i)
	var v val
	j := i + 1
	switch {
	case depth > maxDepth:
		if t.kind == tPunct && s.match[i] >= 0 {
			j = s.after(i)
		}
		return val{}, j
	case t.kind == tString:
		v = val{kind: vStr, str: t.text}
	case t.kind == tNumber:
		n, err := strconv.Atoi(t.text)
		if err != nil {
			n = -1
		}
		v = val{kind: vNum, n: n}
	case t.kind == tPunct && t.text == "#":
		// The length operator applies to the whole operand after it.
		if v, j = s.operand(j, depth+1); v.kind == vArgv && v.n > 0 {
			return val{kind: vLen, n: v.n}, j
		}
		return val{}, j
	case t.kind == tPunct:
		if t.text != "(" && t.text != "{" {
			return val{}, j
		}
		j = s.after(i)
		if t.text == "(" {
			a, b := s.inner(i)
			v = s.value(a, b, depth+1)
		}
	case t.text == "false" || t.text == "nil":
		v = val{kind: vFalse, str: t.text}
	case t.text == "true":
		v = val{kind: vTrue}
	case t.text == "KEYS" || t.text == "ARGV":
		v = val{kind: vKey, key: anyKey}
		if t.text == "ARGV" {
			v = val{}
		}
		if s.is(j, "[") {
			a, b := s.inner(j)
			n := -1
			if b == a+1 && s.tok(a).kind == tNumber {
				n, _ = strconv.Atoi(s.tok(a).text)
			}
			j = s.after(j)
			switch {
			case t.text == "ARGV":
				v = val{kind: vArgv, n: max(n, 0)}
			case n > 0:
				v = val{kind: vKey, key: "K" + strconv.Itoa(n)}
			}
		}
	case t.text == "redis" || t.text == "server":
		var ok bool
		if v, j, ok = s.call(i, depth); !ok {
			v, j = val{}, i+1
		}
	case t.text == "string" && s.is(j, ".") && stringFuncs[s.name(j+1)] && s.is(j+2, "("):
		v, j = s.strcall(s.name(j+1), nil, j+2, depth), s.after(j+2)
	case t.text == "table" && s.is(j, ".") && s.name(j+1) == "unpack" && s.is(j+2, "("):
		j += 2
		fallthrough
	case (t.text == "unpack" || t.text == "tostring") && s.is(j, "("):
		// unpack(KEYS) names every key; tostring(x) compares like x.
		a, b := s.inner(j)
		v, j = s.single(a, b, depth+1), s.after(j)
	default:
		v = s.binds[t.text]
	}
	for j < len(s.toks) {
		switch u := s.tok(j); {
		case u.kind == tString:
			v, j = val{}, j+1
		case u.kind != tPunct:
			return v, j
		case u.text == "[":
			if v.kind == vCall && v.cmd == "MGET" {
				v.cmd = "GET"
			} else {
				v = val{}
			}
			j = s.after(j)
		case u.text == "(" || u.text == "{":
			v, j = val{}, s.after(j)
		case u.text == ":" && stringFuncs[s.name(j+1)] && s.is(j+2, "("):
			v, j = s.strcall(s.name(j+1), []val{v}, j+2, depth), s.after(j+2)
		case u.text == "." || u.text == ":":
			v, j = val{}, j+2
		default:
			return v, j
		}
	}
	return v, min(j, len(s.toks))
}

// call reads redis.call(cmd, …) or redis.pcall at i. At depth 0 it leaves
// the arguments after the command in s.args; nested calls only need their
// key and the argument after it, which keeps deep nesting cheap.
func (s *scanner) call(i, depth int) (v val, end int, ok bool) {
	fn := s.name(i + 2)
	if !s.is(i+1, ".") || fn != "call" && fn != "pcall" || !s.is(i+3, "(") {
		return val{}, i + 1, false
	}
	end = s.after(i + 3)
	a, b := s.inner(i + 3)
	if a >= b || s.tok(a).kind != tString || len(s.tok(a).text) > 20 {
		return val{}, end, false
	}
	if depth == 0 {
		s.args = s.args[:0]
	}
	var first [2]val
	n := 0
	for k, start := a, a; k <= b; {
		if k < b && !s.is(k, ",") {
			if s.tok(k).kind == tPunct && s.match[k] >= 0 {
				k = s.after(k)
			} else {
				k++
			}
			continue
		}
		if start == a && k != a+1 {
			return val{}, end, false // the command is not a plain string
		}
		if start != a {
			arg := s.single(start, k, depth+1)
			if n < len(first) {
				first[n] = arg
			}
			n++
			if depth == 0 {
				s.args = append(s.args, arg)
			} else if n == len(first) {
				break
			}
		}
		start, k = k+1, k+1
	}
	v = val{kind: vCall, cmd: strings.ToUpper(s.tok(a).text), key: "?", n: -1}
	if n > 0 {
		v.key = keyOf(first[0])
	}
	if v.cmd == "MSET" || v.cmd == "MSETNX" {
		v.key = anyKey
	}
	if n > 1 && first[1].kind == vArgv {
		v.n = first[1].n
	}
	return v, end, true
}

// isBinary reports whether toks[i] continues an expression with an operator,
// which makes the operand before it only part of the value.
func (s *scanner) isBinary(i int) bool {
	if i >= len(s.toks) {
		return false
	}
	switch t := s.tok(i); t.kind {
	case tName:
		return t.text == "and" || t.text == "or"
	case tPunct:
		switch t.text {
		case "..", "+", "-", "*", "/", "//", "%", "^", "==", "~=", "<", ">", "<=", ">=", "&", "|", "~", "<<", ">>":
			return true
		}
	}
	return false
}

// expr is the value of the expression at i if it is a single operand,
// possibly extended.
func (s *scanner) expr(i int) (val, int) {
	v, end := s.operand(i, 0)
	if v, end = s.extend(v, end, 0); s.isBinary(end) {
		v = val{}
	}
	return v, end
}
