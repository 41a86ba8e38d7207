package lua

import (
	"strings"
	"testing"
)

// prefixSeeds are broken prefix tests, which the well-formed ones in cases
// do not reach: cut-off argument lists, dangling operators, odd receivers.
var prefixSeeds = []string{
	`if string.find(redis.call("get", KEYS[1]) or "", ARGV[1] .. ":", 1, true == 1 then return redis.call("del", KEYS[1]) end`,
	`if string.find(v, "^" .. ) then return redis.call("del", KEYS[1]) end`,
	`if string.find(v, ARGV[1] .. ":" .., 1, true) == 1 then return redis.call("del", KEYS[1]) end`,
	`if v:sub(1, #) == ARGV[1] then return redis.call("del", KEYS[1]) end`,
	`if string.sub(v, 1, ##ARGV[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end`,
	`if ARGV[1]:len():find(ARGV[1]) == 1 then return redis.call("del", KEYS[1]) end`,
	`local v = redis.call("get", KEYS[1]) or if v:match("^" .. ARGV[1]) then return redis.call("del", KEYS[1]) end`,
	`if string.match(string.match(string.match(v, "^" .. ARGV[1]), "^" .. ARGV[1]), "^") then redis.call("pexpire", KEYS[1], 1) end`,
	`if (redis.call("get", KEYS[1]) or ""):find(ARGV[1], 1, true, 1, 1) == 1 then return redis.call("del", KEYS[1]) end`,
	`string.find(`, `v:sub(`, `#`, `"^" ..`, `string.len`,
}

// FuzzClassify calls the unexported classify, because Classify's recover
// would hide the panics fuzzing is meant to find.
func FuzzClassify(f *testing.F) {
	for _, c := range cases {
		f.Add(c.src)
	}
	for _, src := range prefixSeeds {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		a, b := classify(src), classify(src)
		if a != b {
			t.Fatalf("classify(%q) not deterministic: %+v then %+v", src, a, b)
		}
		// A trailing comment adds no tokens, whatever state the script
		// ended in, so it must not change the answer.
		if c := classify(src + "\n-- end"); c != a {
			t.Fatalf("classify(%q) = %+v, but with a trailing comment %+v", src, a, c)
		}
	})
}

// TestLargeScripts guards against quadratic scans and deep recursion. Each
// input is 4 MB and takes well under a second; nothing is timed, since a
// quadratic scan of 4 MB would take hours, which the test timeout catches.
func TestLargeScripts(t *testing.T) {
	const size = 4 << 20
	grow := func(unit string) string { return strings.Repeat(unit, size/len(unit)+1) }
	inputs := map[string]string{
		"statements":     grow(`if redis.call("get", KEYS[1]) == ARGV[1] then redis.call("del", KEYS[1]) end local v = redis.call('GET', KEYS[2]) ` + "\n"),
		"early returns":  grow(`if redis.call("get", KEYS[1]) ~= ARGV[1] then return 0 end `) + `return redis.call("del", KEYS[1])`,
		"open ifs":       grow("if a == ARGV[1] then "),
		"open parens":    grow("("),
		"nested calls":   grow("redis.call('SET', KEYS[1], ") + grow(")"),
		"nots":           "if " + grow("not ") + "x then end",
		"long condition": "if " + grow("redis.call('get', KEYS[1]) == ARGV[1] and ") + "x then redis.call('del', KEYS[1]) end",
		"elseif chain":   "if x then " + grow("elseif redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 ") + "end",
		"locals":         "local " + grow("a, ") + "b = " + grow("ARGV[1], ") + "c",
		"loops":          grow("for _, k in ipairs(KEYS) do while x do repeat "),
		"comment":        "--[==[" + grow("]=]"),
		"long bracket":   "[" + grow("="),
		"string":         `"` + grow(`\"`),
		"prefix tests":   grow(`if string.find(redis.call("get", KEYS[1]) or "", ARGV[1] .. ":", 1, true) == 1 then redis.call("del", KEYS[1]) end ` + "\n"),
		"nested finds":   "if " + grow("string.find(v:sub(1, #ARGV[1]), ") + grow(")") + " then end",
		"open finds":     grow("local a = string.find(v, "),
		"long needle":    `if string.find(v, "^" .. ARGV[1]` + grow(` .. ":"`) + ") then end",
		"lengths":        "return " + grow("#"),
		"method chain":   "return v" + grow(":sub(1, #ARGV[1])"),
	}
	for name, src := range inputs {
		t.Run(name, func(t *testing.T) { Classify(src) })
	}
}
