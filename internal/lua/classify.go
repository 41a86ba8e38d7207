package lua

// Script is what a Redis Lua script does to its keys, as far as locks are concerned.
type Script struct {
	SetIfAbsent      bool // sets a key only if absent: SET KEYS[i] … NX, SETNX, or EXISTS/GET-is-nil check guarding a SET
	SetTTL           bool // the set-if-absent gives the key a TTL (EX/PX/SET … then PEXPIRE/EXPIRE in the same script, SETEX/PSETEX)
	CompareAndDelete bool // deletes KEYS[i] only if GET KEYS[i] equals an ARGV value (compare-and-delete)
	CompareAndExpire bool // (P)EXPIRE(s) KEYS[i] only if GET KEYS[i] equals an ARGV value (owner-checked refresh)
	Deletes          bool // a DEL/UNLINK that is NOT guarded by an owner comparison
	Expires          bool // an EXPIRE/PEXPIRE that is NOT guarded by an owner comparison
	Token            bool // returns a monotonically increasing counter (INCR/INCRBY result returned, or stored then returned): a fencing token
	OwnerArg         int  // 1-based ARGV index the owner comparison uses (0 if none)
	ValueArg         int  // 1-based ARGV index of the value the set-if-absent stores (0 if none or not an ARGV)
}

// Classify reads src tolerantly and never panics; unknown text yields the zero Script.
func Classify(src string) (s Script) {
	// The analyzer runs over code it does not control; a bug here must cost
	// one script's classification, not the whole analysis run.
	defer func() {
		if recover() != nil {
			s = Script{}
		}
	}()
	return classify(src)
}

func classify(src string) Script {
	if len(src) >= 1<<31 {
		return Script{} // beyond what lexeme offsets can address
	}
	toks := tokenize(src)
	s := &scanner{
		src:      src,
		toks:     toks,
		match:    brackets(src, toks),
		binds:    make(map[string]val),
		frames:   []frame{{kind: fChunk}},
		counters: make(map[string]bool),
	}
	for i := 0; i < len(toks); {
		i = max(s.step(i), i+1)
	}
	return s.result()
}

type frameKind uint8

const (
	fChunk frameKind = iota
	fIf
	fLoop   // for, while: its body runs after `do`
	fRepeat // repeat … until
	fDo
	fFunc
)

// frame is an open block. For an if statement it spans all its branches.
type frame struct {
	kind   frameKind
	base   int  // len(scanner.facts) when the block (or current branch) began
	await  bool // fIf: condition read, `then` not yet; fLoop: `do` not yet
	ret    bool // the current branch has returned
	allRet bool // fIf: every finished if/elseif branch returned
	inElse bool
	cur    cond   // fIf: condition of the current branch
	neg    []fact // fIf: what the failed conditions of finished branches establish
}

const (
	maxFrames = 1000 // deeper nesting is counted, not tracked
	maxFacts  = 256  // bounds the guard lookup per command
)

type scanner struct {
	src      string
	toks     []lexeme
	match    []int32
	binds    map[string]val // locals and globals, unscoped
	frames   []frame
	overflow int    // blocks opened beyond maxFrames
	facts    []fact // guards in force, innermost last
	sites    []site
	args     []val           // arguments of the latest top-level call read
	counters map[string]bool // keys holding an INCR result
	token    bool
}

func (s *scanner) tok(i int) token { return s.toks[i].token(s.src) }

func (s *scanner) top() *frame { return &s.frames[len(s.frames)-1] }

func (s *scanner) push(k frameKind) {
	if len(s.frames) >= maxFrames {
		s.overflow++
		return
	}
	s.frames = append(s.frames, frame{kind: k, base: len(s.facts), await: k == fIf || k == fLoop, allRet: true})
}

func (s *scanner) addFacts(fs []fact) {
	s.facts = append(s.facts, fs[:min(len(fs), maxFacts-len(s.facts))]...)
}

// endBranch closes the current branch of the if statement f.
func (s *scanner) endBranch(f *frame) {
	if !f.inElse {
		f.allRet = f.allRet && f.ret
		if len(f.neg) < maxFacts {
			f.neg = append(f.neg, f.cur.neg...)
		}
	}
	f.ret, f.cur = false, cond{}
	s.facts = s.facts[:f.base]
}

func (s *scanner) pop() {
	if s.overflow > 0 {
		s.overflow--
		return
	}
	if len(s.frames) == 1 {
		return // a stray `end` is not worth losing the chunk's guards over
	}
	f := *s.top()
	s.frames = s.frames[:len(s.frames)-1]
	parent := s.top()
	switch f.kind {
	case fIf:
		elseRet := f.inElse && f.ret
		s.endBranch(&f)
		// `if not owner then return end` guards what follows.
		if f.allRet {
			s.addFacts(f.neg)
			parent.ret = parent.ret || elseRet
		}
	case fLoop, fRepeat:
		// Facts from early returns in the body stay: past the loop, every
		// iteration passed the check (the MGET-over-KEYS release).
	case fDo:
		parent.ret = parent.ret || f.ret
	default:
		s.facts = s.facts[:f.base]
	}
}

// step handles the token at i and returns where to continue; it moves past
// no more than it has to, so that calls nested anywhere are still visited.
func (s *scanner) step(i int) int {
	t := s.tok(i)
	if t.kind != tName {
		return i + 1
	}
	switch t.text {
	case "if":
		s.push(fIf)
		if s.overflow == 0 {
			s.top().cur = s.condition(i+1, s.findThen(i+1), 0)
		}
	case "elseif":
		if f := s.top(); f.kind == fIf && s.overflow == 0 {
			s.endBranch(f)
			s.addFacts(f.neg)
			f.cur, f.await = s.condition(i+1, s.findThen(i+1), 0), true
		}
	case "then":
		if f := s.top(); f.kind == fIf && f.await && s.overflow == 0 {
			f.await = false
			s.addFacts(f.cur.pos)
		}
	case "else":
		if f := s.top(); f.kind == fIf && s.overflow == 0 {
			s.endBranch(f)
			f.inElse = true
			s.addFacts(f.neg)
		}
	case "end":
		s.pop()
	case "until":
		if s.overflow > 0 || s.top().kind == fRepeat {
			s.pop()
		}
	case "for":
		s.forHeader(i + 1)
		s.push(fLoop)
	case "while":
		s.push(fLoop)
	case "do":
		if f := s.top(); f.kind == fLoop && f.await && s.overflow == 0 {
			f.await = false
		} else {
			s.push(fDo)
		}
	case "repeat":
		s.push(fRepeat)
	case "function":
		s.push(fFunc)
	case "return":
		s.top().ret = true
		if v, _ := s.expr(i + 1); s.isCounter(v) {
			s.token = true
		}
	case "error":
		if s.is(i+1, "(") {
			s.top().ret = true
		}
	case "local":
		return s.assign(i + 1)
	case "redis", "server":
		if !s.isField(i) {
			s.site(i)
		}
	default:
		if s.is(i+1, "=") && !s.isField(i) && !keywords[t.text] {
			return s.assign(i)
		}
	}
	return i + 1
}

var keywords = map[string]bool{
	"and": true, "break": true, "do": true, "else": true, "elseif": true, "end": true,
	"false": true, "for": true, "function": true, "goto": true, "if": true, "in": true,
	"local": true, "nil": true, "not": true, "or": true, "repeat": true, "return": true,
	"then": true, "true": true, "until": true, "while": true,
}

// isField reports whether the name at i follows a dot, as in t.redis or t.x = 1.
func (s *scanner) isField(i int) bool { return s.is(i-1, ".") || s.is(i-1, ":") }

// nameList reads the names `a, b, c` at i, which sit at i, i+2, …, and
// returns how many there are and the index after them.
func (s *scanner) nameList(i int) (n, end int) {
	for ; s.name(i) != "" && !keywords[s.name(i)]; i += 2 {
		n++
		if !s.is(i+1, ",") {
			return n, i + 1
		}
	}
	return n, i
}

func (s *scanner) bind(name string, v val) {
	if v.kind == vUnknown {
		delete(s.binds, name)
	} else {
		s.binds[name] = v
	}
}

// assign binds `[local] a, b = x, y` and returns the index after `=`.
func (s *scanner) assign(i int) int {
	n, end := s.nameList(i)
	if !s.is(end, "=") {
		for k := range n {
			delete(s.binds, s.name(i+2*k))
		}
		return end
	}
	j := end + 1
	for k := range n {
		v, e := val{}, j // past the end of the expression list, names become nil
		if j >= 0 {
			v, e = s.expr(j)
		}
		s.bind(s.name(i+2*k), v)
		if j >= 0 && s.is(e, ",") {
			j = e + 1
		} else {
			j = -1
		}
	}
	return end + 1
}

// forHeader binds the value variable of `for _, v in ipairs(x)` to an element of x.
func (s *scanner) forHeader(i int) {
	n, end := s.nameList(i)
	for k := range n {
		delete(s.binds, s.name(i+2*k))
	}
	if it := s.name(end + 1); n < 2 || s.name(end) != "in" || it != "ipairs" && it != "pairs" || !s.is(end+2, "(") {
		return
	}
	a, b := s.inner(end + 2)
	s.bind(s.name(i+2), elem(s.single(a, b, 0)))
}

func (s *scanner) isCounter(v val) bool {
	return v.kind == vCall && (v.cmd == "INCR" || v.cmd == "INCRBY" || v.cmd == "GET" && s.counters[v.key])
}
