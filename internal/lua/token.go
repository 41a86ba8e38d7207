package lua

import "strings"

type kind uint8

const (
	tName kind = iota + 1
	tString
	tNumber
	tPunct
)

type token struct {
	kind kind
	text string // a string's contents without quotes; otherwise the text as written
}

// lexeme is a token as stored: offsets rather than a string keep the slice
// free of pointers, which matters to the garbage collector on huge scripts.
type lexeme struct {
	kind       kind
	start, end uint32
}

func (l lexeme) token(src string) token { return token{l.kind, src[l.start:l.end]} }

// tokenize never fails: unterminated strings stop at the end of their line
// and unterminated comments or long brackets swallow the rest, which keeps
// a broken script from turning its tail into phantom code.
func tokenize(src string) []lexeme {
	toks := make([]lexeme, 0, len(src)/2) // most scripts need about len/4
	add := func(k kind, start, end int) { toks = append(toks, lexeme{k, uint32(start), uint32(end)}) }
	i := 0
	if strings.HasPrefix(src, "#!") { // Redis 7 shebang: "#!lua flags=no-writes"
		i = lineEnd(src, 0)
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && strings.HasPrefix(src[i:], "--"):
			if level, ok := longOpen(src, i+2); ok {
				_, _, i = longBody(src, i+2, level)
			} else {
				i = lineEnd(src, i)
			}
		case c == '[':
			if level, ok := longOpen(src, i); ok {
				var start, end int
				start, end, i = longBody(src, i, level)
				if end < len(src) {
					add(tString, start, end) // unterminated, it swallows the rest as a comment does
				}
			} else {
				add(tPunct, i, i+1)
				i++
			}
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++ // the escaped byte may be a quote or a newline
				}
				j++
			}
			j = min(j, len(src))
			add(tString, i+1, j)
			if j < len(src) && src[j] == c {
				j++
			}
			i = j
		case isLetter(c):
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			add(tName, i, j)
			i = j
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j]) || src[j] == '.') {
				j++
			}
			add(tNumber, i, j)
			i = j
		default:
			n := 1
			if strings.HasPrefix(src[i:], "...") {
				n = 3
			} else if i+1 < len(src) && isPair(src[i:i+2]) {
				n = 2
			}
			add(tPunct, i, i+n)
			i += n
		}
	}
	return toks
}

func isPair(s string) bool {
	switch s {
	case "==", "~=", "<=", ">=", "..", "::", "//", "<<", ">>":
		return true
	}
	return false
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

func lineEnd(src string, i int) int {
	if n := strings.IndexByte(src[i:], '\n'); n >= 0 {
		return i + n
	}
	return len(src)
}

// longOpen reports whether src[i:] opens a long bracket [[ or [==[, and its level.
func longOpen(src string, i int) (int, bool) {
	if i >= len(src) || src[i] != '[' {
		return 0, false
	}
	j := i + 1
	for j < len(src) && src[j] == '=' {
		j++
	}
	return j - i - 1, j < len(src) && src[j] == '['
}

// longBody returns where the contents of the long bracket opening at i start
// and end, and the index after its closer.
func longBody(src string, i, level int) (start, end, next int) {
	start = i + level + 2
	n := strings.Index(src[start:], "]"+strings.Repeat("=", level)+"]")
	if n < 0 {
		return start, len(src), len(src)
	}
	return start, start + n, start + n + level + 2
}

// brackets maps every opening bracket to the index of its closer, -1 when
// unclosed, so that later scans jump over groups instead of rescanning them.
func brackets(src string, toks []lexeme) []int32 {
	match := make([]int32, len(toks))
	var open []int32
	for i, l := range toks {
		match[i] = -1
		if l.kind != tPunct {
			continue
		}
		switch t := l.token(src).text; t {
		case "(", "[", "{":
			open = append(open, int32(i))
		case ")", "]", "}":
			// A stray closer is ignored rather than allowed to unbalance
			// everything before it.
			if n := len(open); n > 0 && pairs(toks[open[n-1]].token(src).text, t) {
				match[open[n-1]] = int32(i)
				open = open[:n-1]
			}
		}
	}
	return match
}

func pairs(open, close string) bool {
	return open == "(" && close == ")" || open == "[" && close == "]" || open == "{" && close == "}"
}
