package lua

// A lock whose value is "clientID:token" is released by whoever holds the
// clientID, so the owner check compares only a prefix of the stored value:
// string.find(v, ARGV[1] .. ":", 1, true) == 1, string.sub(v, 1, #ARGV[1])
// == ARGV[1], string.match(v, "^" .. ARGV[1]). A find that may match
// anywhere in the value is a substring test and identifies nobody.

var stringFuncs = map[string]bool{"find": true, "match": true, "sub": true, "len": true}

// maxStringArgs is the most arguments string.find takes.
const maxStringArgs = 4

// strcall reads string.fn(…), or self:fn(…) given the receiver in self,
// whose argument list opens at i.
func (s *scanner) strcall(fn string, self []val, i, depth int) val {
	var buf [maxStringArgs]val
	args := append(buf[:0], self...)
	a, b := s.inner(i)
	for k, start := a, a; a < b && k <= b; {
		if k < b && !s.is(k, ",") {
			if s.tok(k).kind == tPunct && s.match[k] >= 0 {
				k = s.after(k)
			} else {
				k++
			}
			continue
		}
		if len(args) == len(buf) {
			return val{}
		}
		args = append(args, s.value(start, k, depth+1))
		start, k = k+1, k+1
	}
	return probe(fn, args)
}

// probe is the value of string.fn(args…) as far as it tests a stored value
// against an ARGV prefix.
func probe(fn string, args []val) val {
	if fn == "len" {
		if len(args) == 1 && args[0].kind == vArgv && args[0].n > 0 {
			return val{kind: vLen, n: args[0].n}
		}
		return val{}
	}
	if len(args) < 2 || !isStored(args[0]) {
		return val{}
	}
	subject, needle := args[0], args[1]
	if fn == "sub" {
		// string.sub(v, 1, #ARGV[n]) is the stored value cut to the owner's length.
		if len(args) == 3 && args[1].kind == vNum && args[1].n == 1 && args[2].kind == vLen {
			return val{kind: vProbe, cmd: "SUB", key: subject.key, n: args[2].n}
		}
		return val{}
	}
	if needle.kind == vArgv && needle.n > 0 {
		needle = val{kind: vNeedle, n: needle.n}
	}
	if needle.kind != vNeedle || len(args) > 2 && (args[2].kind != vNum || args[2].n != 1) {
		return val{}
	}
	p := val{kind: vProbe, cmd: "FIND", key: subject.key, n: needle.n, anchored: needle.anchored}
	switch {
	case fn == "match":
		// A match tells nothing about where it matched unless anchored.
		if !needle.anchored || len(args) > 3 {
			return val{}
		}
		p.cmd = "MATCH"
	case len(args) < 4 || args[3].kind == vFalse:
		// A pattern find: anchored, its truth alone tells a prefix.
	case args[3].kind != vTrue || needle.anchored:
		// An unknown flag leaves the mode in doubt, and a plain find takes
		// ^ literally and matches anywhere: only its position tells a prefix.
		return val{}
	}
	return p
}

// needle reads the concatenation whose first operand v ends at i, as a
// prefix test looks for it: ARGV[n], or "^" then ARGV[n], followed by
// constant strings.
func (s *scanner) needle(v val, i, depth int) (val, int) {
	out := val{kind: vNeedle}
	if v.kind == vStr && v.str == "^" {
		out.anchored = true
		v, i = s.operand(i+1, depth)
	}
	if v.kind != vArgv || v.n == 0 {
		return val{}, i
	}
	out.n = v.n
	for s.is(i, "..") {
		if v, i = s.operand(i+1, depth); v.kind != vStr {
			return val{}, i
		}
	}
	return out, i
}
