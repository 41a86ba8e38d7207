package lockmodel

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// words turns a typed client call into the words of the Redis command it
// sends, its name first, as the table row's shape says: rdb.SetNX(ctx, k, v,
// ttl) is SET k v NX PX ttl, go-zero's SetnxEx(k, v, 10) is SET k v NX EX 10.
// label names the acquisition in messages where the method's name says it
// better than the command does (SETNX). ok is false for arguments lockvet
// cannot spell out (a slice of keys built elsewhere, a script it cannot read).
func (r *recognizer) words(row *clients.Func, recv ssa.Value, args []ssa.Value) (words []ssa.Value, label string, ok bool) {
	word := func(s string) ssa.Value { return ssa.NewConst(constant.MakeString(s), types.Typ[types.String]) }
	switch row.Shape {
	case clients.Raw:
		return args, "", len(args) > 0
	case clients.Words:
		return append([]ssa.Value{word(row.Command)}, args...), "", true
	case clients.SetNXTTL, clients.SetNXSeconds:
		switch {
		case len(args) == 2:
			return []ssa.Value{word("SETNX"), args[0], args[1]}, "", true
		case len(args) == 3 && isZeroConst(args[2]):
			// The zero TTL stays a word: a fix puts the TTL there.
			return []ssa.Value{word("SETNX"), args[0], args[1], args[2]}, "", true
		case len(args) == 3:
			unit := "PX"
			if row.Shape == clients.SetNXSeconds {
				unit = "EX"
			}
			return []ssa.Value{word("SET"), args[0], args[1], word("NX"), word(unit), args[2]}, "SETNX", true
		}
	case clients.SetTTL, clients.SetSeconds:
		if len(args) != 3 {
			break
		}
		if isZeroConst(args[2]) {
			return []ssa.Value{word("SET"), args[0], args[1]}, "", true
		}
		unit := "PX"
		if row.Shape == clients.SetSeconds {
			unit = "EX"
		}
		return []ssa.Value{word("SET"), args[0], args[1], word(unit), args[2]}, "", true
	case clients.SetArgs:
		if len(args) == 3 {
			return setArgs(word, args)
		}
	case clients.DelExArgs:
		if len(args) == 2 {
			return delExArgs(word, args)
		}
	case clients.EvalKeys, clients.ScriptArg:
		if len(args) < 2 {
			break
		}
		keys, ok := ssautil.SliceElems(args[1])
		if !ok {
			break
		}
		src := args[0]
		if row.Shape == clients.ScriptArg {
			text, _, ok := r.newScript(src)
			if !ok {
				break
			}
			src = word(text)
		}
		return eval(word, src, keys, flatten(args[2:])), "", true
	case clients.ScriptRun:
		text, _, ok := r.newScript(recv)
		if !ok || len(args) < 1 {
			break
		}
		if keys, ok := ssautil.SliceElems(args[0]); ok {
			return eval(word, word(text), keys, flatten(args[1:])), "", true
		}
	case clients.ScriptDo:
		if text, n, ok := r.newScript(recv); ok && n >= 0 && n <= len(args) {
			return eval(word, word(text), args[:n], args[n:]), "", true
		}
	}
	return nil, "", false
}

// flatten spreads a slice literal given as one argument into its elements,
// as go-redis does when it writes the command: Eval(ctx, src, keys,
// []string{value, ttl}) sends ARGV[1] and ARGV[2].
func flatten(args []ssa.Value) []ssa.Value {
	var out []ssa.Value
	for _, a := range args {
		if _, ok := ssautil.Unwrap(a).Type().Underlying().(*types.Slice); ok {
			if elems, ok := ssautil.SliceElems(ssautil.Unwrap(a)); ok {
				out = append(out, elems...)
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// eval spells EVAL src numkeys keys… args….
func eval(word func(string) ssa.Value, src ssa.Value, keys, args []ssa.Value) []ssa.Value {
	n := ssa.NewConst(constant.MakeInt64(int64(len(keys))), types.Typ[types.Int])
	out := append([]ssa.Value{word("EVAL"), src, n}, keys...)
	return append(out, args...)
}

// setArgs spells go-redis SetArgs{Mode: "NX", TTL: …} as SET's options.
func setArgs(word func(string) ssa.Value, args []ssa.Value) ([]ssa.Value, string, bool) {
	fields, ok := ssautil.StructFields(args[2])
	if !ok {
		return nil, "", false
	}
	out := []ssa.Value{word("SET"), args[0], args[1]}
	if v := fields["Mode"]; v != nil {
		mode, ok := ssautil.ConstString(v)
		if !ok {
			return nil, "", false
		}
		if mode != "" {
			out = append(out, word(mode))
		}
	}
	for _, f := range [...]struct{ field, opt string }{{"TTL", "PX"}, {"ExpireAt", "PXAT"}} {
		if v := fields[f.field]; v != nil && !isZeroConst(v) {
			out = append(out, word(f.opt), v)
		}
	}
	if v := fields["KeepTTL"]; v != nil && !isZeroConst(v) {
		out = append(out, word("KEEPTTL"))
	}
	return out, "", true
}

// delExArgs spells go-redis DelExArgs{Mode: "IFEQ", MatchValue: v}.
func delExArgs(word func(string) ssa.Value, args []ssa.Value) ([]ssa.Value, string, bool) {
	fields, ok := ssautil.StructFields(args[1])
	if !ok {
		return nil, "", false
	}
	if mode, _ := ssautil.ConstString(fields["Mode"]); strings.EqualFold(mode, "IFEQ") && fields["MatchValue"] != nil {
		return []ssa.Value{word("DELEX"), args[0], word("IFEQ"), fields["MatchValue"]}, "", true
	}
	return []ssa.Value{word("DELEX"), args[0]}, "", true
}

// readCommand reads one Redis command from its words, its name first:
// whichever client or method sent it, SET NX, SETNX, DEL, UNLINK, GETDEL,
// EXPIRE, PEXPIRE, GET, INCR, INCRBY, DELEX and EVAL mean here what they mean
// to Redis. label, when set, names an acquisition in messages.
func (r *recognizer) readCommand(b *opBuilder, words []ssa.Value, label string) {
	if len(words) == 0 {
		return
	}
	name, ok := ssautil.ConstString(words[0])
	if !ok {
		return
	}
	name = strings.ToUpper(name)
	args := words[1:]
	switch name {
	case "SET":
		if len(args) >= 2 {
			setCommand(b, args, label)
		}
	case "SETNX":
		if len(args) == 2 || len(args) == 3 && isZeroConst(args[2]) {
			b.nilIsError = false // SETNX answers 0 or 1, never nil
			var ttl ssa.Value
			if len(args) == 3 {
				ttl = args[2]
			}
			b.acquire("SETNX", args[0], args[1], TTLNone, ttl)
		}
	case "DEL", "UNLINK":
		for _, k := range args {
			b.release(name, k, nil)
		}
	case "GETDEL":
		if len(args) == 1 {
			b.release(name, args[0], nil)
		}
	case "EXPIRE", "PEXPIRE":
		if len(args) >= 2 {
			b.expire(name, args[0], args[1])
		}
	case "GET":
		if len(args) == 1 {
			b.op(Read, name, args[0])
		}
	case "INCR", "INCRBY":
		if len(args) >= 1 {
			b.op(Count, name, args[0]).Token = true
		}
	case "DELEX":
		if len(args) == 3 {
			if mode, _ := ssautil.ConstString(args[1]); strings.EqualFold(mode, "IFEQ") {
				b.checked(Release, "DELEX IFEQ", args[0], args[2], false)
			}
		} else if len(args) == 1 {
			b.release(name, args[0], nil)
		}
	case "EVAL":
		if len(args) >= 2 {
			n, ok := constInt(args[1])
			if ok && n >= 0 && 2+n <= len(args) {
				if text, ok := r.scripts.text(args[0]); ok {
					b.scriptOps(text, args[2:2+n], args[2+n:])
				}
			}
		}
	}
}

// setCommand reads SET key value [NX|XX] [EX n|PX n|EXAT n|PXAT n|KEEPTTL] [GET].
// Any option lockvet cannot read makes it give up: a guess would be a false report.
func setCommand(b *opBuilder, args []ssa.Value, label string) {
	nx, ttl := false, TTLNone
	var ttlExpr ssa.Value
	for i := 2; i < len(args); i++ {
		opt, ok := ssautil.ConstString(args[i])
		if !ok {
			return
		}
		switch strings.ToUpper(opt) {
		case "NX":
			nx = true
		case "EX", "PX", "EXAT", "PXAT":
			if i+1 >= len(args) {
				return
			}
			ttl, ttlExpr = TTLSet, args[i+1]
			i++
		case "KEEPTTL":
			ttl = TTLUnknown
		case "XX", "GET":
		default:
			return
		}
	}
	if label == "" {
		label = "SET NX"
	}
	switch {
	case nx:
		b.acquire(label, args[0], args[1], ttl, ttlExpr)
	case ttl == TTLSet:
		// Setting the key again with a TTL extends it: under a lock, a
		// refresh, which does not look at who holds it.
		b.checked(Refresh, "SET", args[0], nil, false)
	}
}
