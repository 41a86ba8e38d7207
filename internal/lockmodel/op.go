package lockmodel

import (
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/link"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// Kind is what an operation does to a lock key.
type Kind int

const (
	Acquire Kind = iota + 1 // sets the key only if absent
	Release                 // deletes the key
	Refresh                 // extends the key's TTL
	Read                    // reads the key's value
	Count                   // increments a counter: under a lock, a fencing token
)

// TTL says whether an acquisition gives the key an expiry.
type TTL int

const (
	TTLSet     TTL = iota // atomically, with the set
	TTLNone               // never: a crash holds the lock forever
	TTLUnknown            // cannot tell (a value from elsewhere)
)

// Op is one acquisition, release, refresh or read of a Redis key: a direct client
// call, a Lua script, or a call to a wrapper function known by its fact.
type Op struct {
	Kind    Kind
	Instr   ssa.CallInstruction // *ssa.Call, *ssa.Defer or *ssa.Go
	Fn      *ssa.Function       // the function the call is in
	Key     string              // the key, rendered: what keys are compared by
	Tmpl    Key                 // the key as an expression
	KeyExpr ssa.Value           // the key as passed, nil for wrapper calls
	Command string              // how the operation reads in a message: "SETNX", "DEL", "script", "Unlock"
	Client  ssa.Value           // the receiver or connection the command was sent on, if known

	// Acquire: the stored value. Release and Refresh: the owner value an atomic
	// check compares against (nil when unchecked).
	Value   ssa.Value
	TTL     TTL
	TTLExpr ssa.Value // the TTL argument, when it is one
	Checked bool      // Release, Refresh: ownership is checked atomically
	TwoStep bool      // Release: a GET compared in Go decides whether it runs
	Script  bool      // the command is a Lua script
	// Spread: a release of each key of a variadic parameter, in a wrapper
	// that forwards its keys (Del(ctx, keys ...string)).
	Spread  bool
	Library bool // a lock library's call (redsync, bsm/redislock, …)
	// Token: the operation's result is a fencing token candidate (a Lua
	// script that returns an INCR, an INCR, etcd's revision), in result
	// TokenResult of its call. Grant: it is issued atomically with the
	// lock's grant, as a fencing token must be; an INCR in a round trip of
	// its own is not.
	Token, Grant bool
	TokenResult  int
	// Confirmed: an acquisition whose result is dropped, but whose key is read
	// back at once and compared with the stored value. Confirms: that read.
	Confirmed, Confirms bool

	// Result use: whether a nil-reply error signals "not acquired", and where the
	// result of a SETNX-style command is the acquired flag.
	NilIsError bool
	Queued     bool // sent in a pipeline or transaction: no result at the call

	// Via is the wrapper the operation is made through, with its fact.
	Via  *types.Func
	Fact *WrapperFact
	// Inner is, for a wrapper of this package, the operation inside it that
	// its fact describes (the innermost, for wrappers of wrappers): where a
	// problem the wrapper alone decides is reported.
	Inner *Op

	// Given is the call of the constructor of the lock object the wrapper
	// reads the value from, when this function made it: whether the value
	// is a constant is decided there, not in the wrapper.
	Given *ssa.Call

	// constField: the stored value is read from a field that holds one
	// constant wherever the package sets it (NewLock(rdb, key) sets
	// value: "locked").
	constField bool
	// fixed names the receiver field the value is read from when only the
	// lock object's constructor sets it ("RedisLock.id").
	fixed string
	// StoredIn names the map the released lock object is looked up in by
	// key, shared by every holder in the process (see Model.Stored).
	StoredIn string
	// viaHelper: the wrapper is one of this package's lock helpers paired
	// by name, which the command judges in it.
	viaHelper bool

	// Outcome and Deferred, computed once: every check asks.
	outcomeOnce, deferOnce sync.Once
	outcome                Outcome
	deferred               bool
}

// sameKey reports whether the operation is made on the key of a: the same
// key, or, for a release that spreads a list of keys (UnLock(ctx, skus) over
// Del(ctx, keys...)), the keys an acquisition took one by one from that list.
func (op *Op) sameKey(a *Op) bool {
	return op.Key == a.Key || op.Spread && eachOf(op.Tmpl).String() == a.Key
}

// setKey keys the operation by k.
func (op *Op) setKey(k Key) { op.Tmpl, op.Key = k, k.String() }

// ConstValue reports whether an acquisition stores a constant, or an
// owner-checked release or refresh compares with one: every holder has the
// same value, so no release can tell whose lock it deletes.
func (op *Op) ConstValue() bool {
	if op.Fact != nil && op.Fact.ConstValue || op.constField {
		return true
	}
	return IsConst(op.Value) || op.RepeatsKey()
}

// FixedValue names the lock object's field the value is read from
// ("RedisLock.id") when the object fixed it when it was made and takes its
// keys from its callers: every acquisition through it stores that one value.
func (op *Op) FixedValue() string {
	if op.fixed == "" && op.Fact != nil {
		return op.Fact.Fixed // the wrapper reads it from its own object
	}
	return op.fixed
}

// RepeatsKey reports whether the stored (or compared) value is computed
// only from what the key is computed from, as in SetNX(ctx, key, key, ttl)
// or a value of the order id under "lock:"+id: every holder of the key has
// the same one, as with a constant.
func (op *Op) RepeatsKey() bool {
	if op.Fact != nil && op.Fact.RepeatsKey {
		return true
	}
	return op.Value != nil && keyValue(op.Value).Repeats(op.Tmpl)
}

// IsConst reports whether v is a constant (a literal or a named constant).
func IsConst(v ssa.Value) bool {
	if v == nil {
		return false
	}
	c, ok := ssautil.Unwrap(v).(*ssa.Const)
	return ok && c.Value != nil
}

// Pos is where the operation is: the opening parenthesis of its call, also for
// a deferred call (whose instruction sits at the defer keyword).
func (op *Op) Pos() token.Pos {
	if p := op.Instr.Common().Pos(); p.IsValid() {
		return p
	}
	return op.Instr.Pos()
}

// Deferred reports whether the operation runs at function exit.
func (op *Op) Deferred() bool {
	op.deferOnce.Do(func() { op.deferred = op.computeDeferred() })
	return op.deferred
}

func (op *Op) computeDeferred() bool {
	_, ok := op.Instr.(*ssa.Defer)
	if ok {
		return true
	}
	// A release inside a deferred closure also runs at exit.
	for fn := op.Fn; fn.Parent() != nil; fn = fn.Parent() {
		for _, b := range fn.Parent().Blocks {
			for _, instr := range b.Instrs {
				if d, ok := instr.(*ssa.Defer); ok {
					if mc, ok := d.Call.Value.(*ssa.MakeClosure); ok && mc.Fn == fn {
						return true
					}
					if d.Call.Value == fn {
						return true
					}
				}
			}
		}
	}
	return false
}

// Place says where to report a problem of the operation, and how to name the
// wrapper it is made through. A problem the caller's arguments decide, or the
// operation's own, is reported at the operation. One its wrapper alone
// decides (a constant value, a missing TTL, a plain DEL inside it) is
// reported inside the wrapper when the wrapper is of this package, once
// however many callers; for a wrapper of another package that the link step
// says is analysed too, nowhere here (NoPos: its own package reports it, in
// it); for any other, at the call, naming the wrapper, and once per calling
// function (once is the key to report it once by). A wrapper in a generated file is reported at the call,
// and so is a production wrapper that only a test pairs into a lock. A
// wrapper of this package around another package's wrapper that decides the
// problem places it as that inner call would be placed.
//
// decided says, from a wrapper's fact, whether the wrapper alone decides the
// problem.
func (op *Op) Place(decided func(*WrapperFact) bool, generated func(token.Pos) bool) (pos token.Pos, where, once string) {
	switch {
	case op.Via == nil || !decided(op.Fact) || op.Inner != nil && (generated(op.Inner.Pos()) || op.inTestFile(op.Pos()) && !op.inTestFile(op.Inner.Pos())):
		if op.Via != nil {
			where = " in " + op.Via.Name()
		}
		return op.Pos(), where, ""
	case op.Fact != nil && op.Fact.Forwards:
		// A forwarder decides nothing: the caller chose it for a lock.
	case op.Inner != nil && op.Inner.Via != nil && op.Inner.Fact != nil && decided(op.Inner.Fact):
		return op.Inner.Place(decided, generated)
	case op.Inner != nil:
		return op.Inner.Pos(), "", ""
	}
	where = " in " + op.Via.Pkg().Name() + "." + op.Via.Name()
	if recv := ssautil.RecvName(op.Via); recv != "" {
		where = " in " + op.Via.Pkg().Name() + "." + recv + "." + op.Via.Name()
	}
	if op.Fact != nil && op.Fact.Impl != "" {
		where = " in " + op.Fact.Impl // what the program runs behind the interface
	}
	if _, fn := op.WrapperFunc(); (op.viaHelper || link.Paired(fn)) && (op.Fact == nil || !op.Fact.Forwards) {
		return token.NoPos, "", "" // the wrapper's own package reports it, in it
	}
	return op.Pos(), where, ssautil.Root(op.Fn).String() + where
}

// Always is the decided of a problem that only a wrapper can have, when the
// operation is made through one.
func Always(*WrapperFact) bool { return true }

// WrapperFunc names the function the operation is made through, as the
// program runs it: the implementation behind an interface method the link
// step resolved. "" when it is made directly.
func (op *Op) WrapperFunc() (pkg, fullName string) {
	switch {
	case op.Via == nil:
		return "", ""
	case op.Fact != nil && op.Fact.ImplFunc != "":
		return op.Fact.ImplPkg, op.Fact.ImplFunc
	case op.Via.Pkg() == nil:
		return "", ""
	}
	return op.Via.Pkg().Path(), op.Via.FullName()
}

// rewrites reports whether a refresh sets the key again, value and TTL (a
// plain SET with EX or PX), rather than only extending its TTL.
func (op *Op) rewrites() bool {
	if op.Fact != nil {
		return op.Fact.Command == "SET"
	}
	return op.Command == "SET"
}

// inTestFile reports whether pos is in a test file.
func (op *Op) inTestFile(pos token.Pos) bool {
	f := op.Fn.Prog.Fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}
