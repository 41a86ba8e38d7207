package sqltext

import "strings"

type tokKind uint8

const (
	tWord   tokKind = iota // unquoted identifier or keyword
	tQuoted                // "x", `x` or [x] identifier
	tString                // '...', E'...', N'...', $tag$...$tag$
	tNumber
	tParam // $1, ?, ?1, :name, :1, @name, @p1, $name
	tOp
	tPunct // ( ) [ ] , . : and any byte nothing else claims
)

// token is kept small and free of pointers: multi-megabyte statements
// produce millions of them, and the garbage collector need not scan them.
type token struct {
	start, end int32 // the token's bytes in the source, as written
	// aux is a tParam's placeholder number (numberParams fills it in for
	// `?` and named placeholders) and, once newParser has run, the index
	// of the bracket closing a '(' or '['.
	aux  int32
	kind tokKind
	// space records whitespace or a comment before the token, so operand
	// text can be rebuilt with normalised spacing.
	space bool
}

// maxLen bounds the source a lexer reads so that offsets fit in a token;
// SQL text beyond 2 GiB is not worth reading.
const maxLen = 1<<31 - 1

// maxParam caps placeholder numbers so that absurd digit strings cannot
// overflow into negative values.
const maxParam = 1<<31 - 1

type lexer struct {
	src string
	pos int
	// backslash: MySQL treats backslash as an escape inside '...', standard
	// PostgreSQL does not. MySQL rules are tried first; once a string only
	// terminates under standard rules the input is evidently standard and
	// the lexer stays that way, so that re-scan happens at most once.
	backslash bool
	// subscripts counts open [ subscripts, inside which ':' is a slice
	// bound rather than the start of a :name placeholder.
	subscripts int
	// buf is reused by each statement: parse keeps nothing of it.
	buf []token
}

// newLexer sizes the token buffer for typical density up front: growing
// it by copying dominated the cost of multi-megabyte statements, and the
// untouched tail of a large allocation costs next to nothing.
func newLexer(src string) *lexer {
	src = src[:min(len(src), maxLen)]
	return &lexer{src: src, backslash: true, buf: make([]token, 0, min(len(src)/2, 1<<22))}
}

// statement returns the tokens up to the next ';' outside quotes and
// comments and consumes that ';'. Semicolons nested in parentheses split
// too: in valid SQL they only occur in bodies, which are quoted.
func (lx *lexer) statement() []token {
	lx.buf = lx.buf[:0]
	lx.subscripts = 0
	for {
		space := lx.skipSpace()
		if lx.pos >= len(lx.src) {
			return lx.buf
		}
		if lx.src[lx.pos] == ';' {
			lx.pos++
			return lx.buf
		}
		t := lx.token()
		t.space = space
		lx.buf = append(lx.buf, t)
	}
}

// skipSpace skips whitespace and comments. Block comments do not nest
// (MySQL, SQLite); a nested PostgreSQL comment leaves its tail as tokens,
// which is less harmful than swallowing the rest of the input.
func (lx *lexer) skipSpace() bool {
	start := lx.pos
	for lx.pos < len(lx.src) {
		rest := lx.src[lx.pos:]
		switch {
		case rest[0] <= ' ':
			lx.pos++
		case strings.HasPrefix(rest, "--"):
			lx.pos = skipTo(lx.src, lx.pos, "\n")
		case strings.HasPrefix(rest, "/*"):
			lx.pos = skipTo(lx.src, lx.pos+2, "*/")
		default:
			return lx.pos > start
		}
	}
	return lx.pos > start
}

// skipTo returns the index just past the first end at or after i, or the
// end of s: an unterminated construct runs to the end of the input.
func skipTo(s string, i int, end string) int {
	if j := strings.Index(s[i:], end); j >= 0 {
		return i + j + len(end)
	}
	return len(s)
}

func (lx *lexer) emit(kind tokKind, end, param int) token {
	t := token{kind: kind, start: int32(lx.pos), end: int32(end), aux: int32(param)}
	lx.pos = end
	return t
}

// token reads one token at lx.pos, which is neither space nor ';'. Every
// branch consumes at least one byte.
func (lx *lexer) token() token {
	src, i := lx.src, lx.pos
	c := src[i]
	next := byte(0)
	if i+1 < len(src) {
		next = src[i+1]
	}
	switch {
	case isWordStart(c):
		j := i + 1
		for j < len(src) && isWordChar(src[j]) {
			j++
		}
		if j == i+1 && next == '\'' && strings.IndexByte("eEnNbBxX", c) >= 0 {
			return lx.str(j, c == 'e' || c == 'E')
		}
		return lx.emit(tWord, j, 0)
	case isDigit(c) || c == '.' && isDigit(next) && !(i > 0 && endsName(src[i-1])):
		return lx.emit(tNumber, number(src, i), 0)
	case c == '\'':
		return lx.str(i, false)
	case c == '"' || c == '`':
		return lx.emit(tQuoted, orEnd(src, closeQuote(src, i, c, false)), 0)
	case c == '[':
		if end := bracketIdent(src, i); end > 0 {
			return lx.emit(tQuoted, end, 0)
		}
		lx.subscripts++
		return lx.emit(tPunct, i+1, 0)
	case c == ']':
		if lx.subscripts > 0 {
			lx.subscripts--
		}
		return lx.emit(tPunct, i+1, 0)
	case c == '$':
		return lx.dollar()
	case c == '?':
		if next == '|' || next == '&' { // PostgreSQL jsonb ?| and ?&
			return lx.emit(tOp, i+2, 0)
		}
		if isDigit(next) {
			end, n := digits(src, i+1)
			return lx.emit(tParam, end, n)
		}
		return lx.emit(tParam, i+1, 0)
	case c == ':':
		switch {
		case next == ':' || next == '=':
			return lx.emit(tOp, i+2, 0)
		case lx.subscripts == 0 && isDigit(next):
			end, n := digits(src, i+1)
			return lx.emit(tParam, end, n)
		case lx.subscripts == 0 && isWordStart(next):
			return lx.emit(tParam, paramEnd(src, i+1), 0)
		}
		return lx.emit(tPunct, i+1, 0)
	case c == '@':
		switch {
		case next == '>':
			return lx.emit(tOp, i+2, 0)
		case next == '@': // MySQL @@system_variable
			j := i + 2
			for j < len(src) && isWordChar(src[j]) {
				j++
			}
			return lx.emit(tWord, j, 0)
		case isWordStart(next):
			end := paramEnd(src, i+1)
			n := 0
			if pn := src[i+1 : end]; len(pn) > 1 && (pn[0] == 'p' || pn[0] == 'P') && allDigits(pn[1:]) {
				_, n = digits(pn, 1)
			}
			return lx.emit(tParam, end, n)
		}
		return lx.emit(tOp, i+1, 0)
	case strings.IndexByte(opChars, c) >= 0:
		return lx.emit(tOp, i+opLen(src[i:]), 0)
	}
	return lx.emit(tPunct, i+1, 0)
}

// str reads a '...' string whose opening quote is at q; escape marks an
// E'...' string, where backslash always escapes.
func (lx *lexer) str(q int, escape bool) token {
	end := closeQuote(lx.src, q, '\'', escape || lx.backslash)
	if end < 0 && !escape && lx.backslash {
		lx.backslash = false
		end = closeQuote(lx.src, q, '\'', false)
	}
	return lx.emit(tString, orEnd(lx.src, end), 0)
}

// dollar reads what starts with '$': a $n placeholder, a $tag$...$tag$
// string (unterminated ones run to the end), or a SQLite $name placeholder.
func (lx *lexer) dollar() token {
	src, i := lx.src, lx.pos
	j := i + 1
	if j < len(src) && isDigit(src[j]) {
		end, n := digits(src, j)
		return lx.emit(tParam, end, n)
	}
	if j < len(src) && isWordStart(src[j]) {
		j = paramEnd(src, j)
	}
	if j < len(src) && src[j] == '$' {
		delim := src[i : j+1]
		return lx.emit(tString, skipTo(src, j+1, delim), 0)
	}
	if j > i+1 {
		return lx.emit(tParam, j, 0)
	}
	return lx.emit(tPunct, i+1, 0)
}

// closeQuote returns the index just past the quote q that closes the one
// at open, treating doubled quotes (and, if backslash, \x) as escapes; -1
// if there is none.
func closeQuote(s string, open int, q byte, backslash bool) int {
	for i := open + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if backslash {
				i++
			}
		case q:
			if i+1 < len(s) && s[i+1] == q {
				i++
				continue
			}
			return i + 1
		}
	}
	return -1
}

func orEnd(s string, end int) int {
	if end < 0 {
		return len(s)
	}
	return end
}

// bracketIdent returns the end of a SQL Server/SQLite [identifier] at i, or
// 0 when the bracket is a PostgreSQL subscript or array constructor: those
// follow a name or a closing bracket directly. The scan is bounded (128 is
// SQL Server's identifier limit) so runs of '[' stay linear.
func bracketIdent(s string, i int) int {
	if i > 0 && endsName(s[i-1]) {
		return 0
	}
	for j := i + 1; j < len(s) && j <= i+130; j++ {
		switch s[j] {
		case ']':
			if j+1 < len(s) && s[j+1] == ']' {
				j++
				continue
			}
			if j == i+1 {
				return 0
			}
			return j + 1
		case '[', '\n', ',', '\'', '(':
			return 0
		}
	}
	return 0
}

const opChars = "+-*/%^&|~!<>=#"

var (
	ops3 = []string{"->>", "#>>", "<=>", "!~*"}
	ops2 = []string{"<=", ">=", "<>", "!=", "==", "||", "->", "#>", "<@", "&&", "!~", "~*", "<<", ">>", "#-"}
)

// opLen returns the length of the operator at the start of s, which begins
// with one of opChars. "<@" followed by a name is "<" and an @name
// placeholder (SQL Server "x<@p1"), not the containment operator.
func opLen(s string) int {
	for _, o := range ops3 {
		if strings.HasPrefix(s, o) {
			return 3
		}
	}
	for _, o := range ops2 {
		if strings.HasPrefix(s, o) {
			if o == "<@" && len(s) > 2 && isWordStart(s[2]) {
				break
			}
			return 2
		}
	}
	return 1
}

// number returns the end of the numeric literal starting at i.
func number(s string, i int) int {
	if s[i] == '0' && i+2 < len(s) && s[i+1]|0x20 == 'x' && isHex(s[i+2]) {
		j := i + 2
		for j < len(s) && isHex(s[j]) {
			j++
		}
		return j
	}
	j := skipDigits(s, i)
	if j < len(s) && s[j] == '.' {
		j = skipDigits(s, j+1)
	}
	if j < len(s) && s[j]|0x20 == 'e' {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			j = skipDigits(s, k)
		}
	}
	return j
}

func skipDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// digits reads the decimal number at i, saturating at maxParam.
func digits(s string, i int) (end, n int) {
	for i < len(s) && isDigit(s[i]) {
		n = min(n*10+int(s[i]-'0'), maxParam)
		i++
	}
	return i, n
}

// paramEnd returns the end of a placeholder or dollar-quote tag name
// starting at i: like a word, but without '$'.
func paramEnd(s string, i int) int {
	for i < len(s) && (isWordStart(s[i]) || isDigit(s[i])) {
		i++
	}
	return i
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// isWordStart accepts every byte of a multi-byte UTF-8 sequence, so
// non-ASCII identifiers stay whole without decoding.
func isWordStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isWordChar(c byte) bool { return isWordStart(c) || isDigit(c) || c == '$' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

// endsName reports whether c can end a name or a bracketed expression,
// after which '.' is a qualifier dot and '[' a subscript.
func endsName(c byte) bool {
	return isWordChar(c) || c == '"' || c == '`' || c == ')' || c == ']'
}

// paramName returns a named placeholder's name without its prefix, or ""
// for positional and numbered placeholders.
func paramName(text string) string {
	if len(text) < 2 || isDigit(text[1]) {
		return ""
	}
	switch text[0] {
	case ':', '$':
		return text[1:]
	case '@':
		if (text[1] == 'p' || text[1] == 'P') && allDigits(text[2:]) {
			return ""
		}
		return text[1:]
	}
	return ""
}

// numberParams assigns positions to `?` and named placeholders and returns
// the number of distinct placeholders.
func numberParams(src string, toks []token) int {
	var (
		pos      int32
		distinct int
		named    map[string]int32
		numbered map[int32]bool
	)
	for i := range toks {
		t := &toks[i]
		if t.kind != tParam {
			continue
		}
		text := src[t.start:t.end]
		switch name := paramName(text); {
		case name != "":
			if named == nil {
				named = map[string]int32{}
			}
			if n, ok := named[name]; ok {
				t.aux = n
				continue
			}
			pos++
			distinct++
			named[name] = pos
			t.aux = pos
		case text == "?":
			pos++
			distinct++
			t.aux = pos
		default:
			if numbered == nil {
				numbered = map[int32]bool{}
			}
			if !numbered[t.aux] {
				numbered[t.aux] = true
				distinct++
			}
		}
	}
	return distinct
}
