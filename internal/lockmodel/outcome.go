package lockmodel

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// Outcome is how code uses the result of an acquisition.
type Outcome int

const (
	Gated     Outcome = iota // whether the lock was taken decides what runs next
	Ignored                  // nothing looks at whether the lock was taken
	NilOnly                  // only the "not set" error is tested: any other error passes as acquired
	Logged                   // a failure is tested, logged, and the work goes on anyway
	FailsOpen                // "not acquired" stops the work, but an error is only logged and the work goes on
)

// Checked reports whether the caller of an acquisition can tell that it failed.
func (o Outcome) Checked() bool { return o == Gated || o == NilOnly }

// Outcome tells how the acquisition's result is used. go-redis SetNX answers
// false with a nil error when the key exists, so checking only its error gates
// nothing; SET NX answers a nil reply, which go-redis and redigo's converters
// turn into the nil-reply error, so there an error check does gate.
func (op *Op) Outcome() Outcome {
	if op.Confirmed {
		return Gated // set after a first look found the result dropped
	}
	if op.Fact != nil && op.Fact.Drops {
		return Ignored // the wrapper drops it: its caller cannot know
	}
	op.outcomeOnce.Do(func() { op.outcome = op.computeOutcome() })
	return op.outcome
}

func (op *Op) computeOutcome() Outcome {
	call, ok := op.Instr.(*ssa.Call)
	if !ok {
		return Ignored
	}
	u := usage{wrapper: op.Fact != nil, acq: call}
	u.walk(call, isErrorType(call.Type()), op.NilIsError, 0) // Lock() error: the error is the result
	switch {
	case u.loggedFailure:
		return Logged
	case u.value && u.errLogged:
		// The flag is tested, but a failure to reach Redis only logs
		// and goes on into the work without the lock.
		return FailsOpen
	case u.value:
		return Gated
	case u.gatingErr && (u.nilOnly || !u.excusesNil):
		// A test of every error backs a test of the not-set reply.
		return Gated
	case u.gatingErr:
		// if err != nil && err != redis.Nil { return err }: the not-set
		// reply goes on into the work.
		return Ignored
	case u.nilOnly:
		return NilOnly
	case u.logged:
		return Logged
	}
	return Ignored
}

type usage struct {
	value     bool // the acquired flag or reply is looked at
	gatingErr bool // an error that reports "not acquired" is looked at
	nilOnly   bool // that error is compared with the nil-reply sentinel (err == redis.Nil)
	// excusesNil: the error is told apart from the nil-reply sentinel
	// (err != redis.Nil), as a test that lets the not-set reply through does.
	excusesNil bool
	logged     bool // a test of either only logs a failure (onlyLogs)
	// errLogged: the error of a call that answers "not acquired" with its
	// flag, a failure to reach Redis, is tested only to be logged.
	errLogged bool
	// loggedFailure: a test for one kind of failure only logs it, whatever
	// the other tests do.
	loggedFailure bool
	wrapper       bool // the acquisition is a wrapper's call, whose results may include the lock's token
	acq           *ssa.Call
}

func (u *usage) walk(v ssa.Value, isErr, nilIsError bool, depth int) {
	if depth > 8 || v.Referrers() == nil {
		return
	}
	for _, ref := range *v.Referrers() {
		if logsOnly(ref) {
			continue // printed where a failure is only logged: the test decides
		}
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Extract:
			if u.wrapper && !isErrorType(r.Type()) && !isBool(r.Type()) {
				u.handedOn(r)
				continue
			}
			u.walk(r, isErrorType(r.Type()), nilIsError, depth+1)
		case *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface:
			u.walk(r.(ssa.Value), isErr, nilIsError, depth+1)
		case *ssa.FieldAddr:
			// cmd.Err() is a method of the embedded baseCmd.
			if ssautil.Embedded(r.X.Type(), r.Field) {
				u.walk(r, isErr, nilIsError, depth+1)
			} else {
				u.saw(isErr, nilIsError)
			}
		case *ssa.Call:
			u.call(v, r, isErr, nilIsError, depth)
		case *ssa.BinOp:
			if isErr && (r.Op == token.EQL || r.Op == token.NEQ) && (isNilSentinel(r.X) || isNilSentinel(r.Y)) {
				if r.Op == token.NEQ && nilIsError {
					u.excusesNil = true
				} else {
					u.sawErr(nilIsError, true)
				}
				continue
			}
			if isErr && onlyLogged(r) {
				switch {
				case nilIsError && !hasFlag(u.acq):
					u.logged = true
				case !rejoinsAtFlag(r):
					u.errLogged = true
				}
				continue
			}
			u.saw(isErr, nilIsError)
		case *ssa.If:
			if !isErr && (onlyLogs(r, 1) || fallsThrough(r, 1) && !retries(r, 1, u.acq)) {
				// The acquired flag's own test lets "not acquired" into
				// the work, whatever the error's test does.
				u.logged, u.loggedFailure = true, true
				continue
			}
			u.saw(isErr, nilIsError)
		default:
			u.saw(isErr, nilIsError)
		}
	}
}

// call follows a result into a method of the command object (Val, Err,
// Result), or into a redigo reply converter; any other call counts as a use.
func (u *usage) call(v ssa.Value, call *ssa.Call, isErr, nilIsError bool, depth int) {
	c := call.Common()
	obj, recv, args := ssautil.Callee(c)
	if obj != nil && obj.Pkg() != nil && clients.IsClient(obj.Pkg().Path()) {
		if recv == v {
			switch obj.Name() {
			case "Err":
				u.walk(call, true, nilIsError, depth+1)
			default: // Val, Result, Bool, Text…: the reply itself
				u.walk(call, false, nilIsError, depth+1)
			}
			return
		}
		if row := clients.Lookup(obj.Pkg().Path(), "", obj.Name()); row != nil && row.Role == clients.Convert {
			u.walk(call, false, nilIsError || row.NilIsError, depth+1)
			return
		}
	}
	if obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "errors" && obj.Name() == "Is" && isErr && len(args) == 2 {
		if isNilSentinel(args[1]) {
			u.sawErr(nilIsError, true)
			return
		}
		// A test for one failure (errors.Is(err, redislock.ErrNotObtained))
		// whose branch only logs lets that failure into the work.
		for _, ref := range *call.Referrers() {
			if test, ok := ref.(*ssa.If); ok && onlyLogs(test, 0) {
				u.loggedFailure = true
			}
		}
	}
	u.saw(isErr, nilIsError)
}

// logsOnly reports whether a use of the result is a value logged in a block
// that only logs, not a test of it.
func logsOnly(instr ssa.Instruction) bool {
	switch instr.(type) {
	case *ssa.If, *ssa.BinOp:
		return false
	}
	return instr.Block() != nil && thinBlock(instr.Block())
}

// onlyLogged reports whether a comparison of the error with nil is used only
// by tests that only log a failure.
func onlyLogged(cmp *ssa.BinOp) bool {
	if !comparesErrorWithNil(cmp) {
		return false
	}
	failure := 1 // err == nil: the false side
	if cmp.Op == token.NEQ {
		failure = 0
	}
	return testsOnlyLog(cmp, failure)
}

// rejoinsAtFlag reports whether a test of the error, whose failure side
// only logs, rejoins where the flag is tested next (if err != nil { log };
// if !ok { return }): a failed call answers "not acquired" there too.
func rejoinsAtFlag(cmp *ssa.BinOp) bool {
	for _, ref := range *cmp.Referrers() {
		test, ok := ref.(*ssa.If)
		if !ok {
			continue
		}
		failure := 1
		if cmp.Op == token.NEQ {
			failure = 0
		}
		if join := thinExit(test.Block().Succs[failure]); join != nil && retests(join, test) {
			return true
		}
	}
	return false
}

// testsOnlyLog reports whether cmp is used only by tests, at least one,
// whose failure side (0 for true, 1 for false) only logs.
func testsOnlyLog(cmp *ssa.BinOp, failure int) bool {
	tests := 0
	for _, ref := range *cmp.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.If:
			if !onlyLogs(r, failure) {
				return false
			}
			tests++
		default:
			return false
		}
	}
	return tests > 0
}

// handedOn follows a wrapper's token or lease result: handing it to a call
// (the release, a write) or a deferred closure says nothing of whether the lock
// was taken; testing it (token == "", lease == nil) or keeping it does.
func (u *usage) handedOn(v ssa.Value) {
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef, ssa.CallInstruction, *ssa.MakeClosure:
		case *ssa.MakeInterface, *ssa.ChangeType:
			u.handedOn(r.(ssa.Value))
		case *ssa.BinOp:
			// if lease != nil { defer lease.Release() }: a test whose
			// "no lease" side only rejoins the work decides nothing.
			if !leaseTestOnlyLogs(r) {
				u.value = true
			}
		case *ssa.Store:
			// Into a variable a closure captures (defer func() {
			// lease.Release() }()): what the closure does with it.
			if alloc, ok := r.Addr.(*ssa.Alloc); ok && r.Val == v {
				u.handedOnVar(alloc)
			} else {
				u.value = true
			}
		default:
			u.value = true
		}
	}
}

// leaseTestOnlyLogs reports whether cmp compares a lease with nil and every
// test of it lets "no lease" into the work, as if ok { defer unlock() } does.
func leaseTestOnlyLogs(cmp *ssa.BinOp) bool {
	if cmp.Op != token.EQL && cmp.Op != token.NEQ || !isNilConst(cmp.X) && !isNilConst(cmp.Y) {
		return false
	}
	failure := 1 // lease != nil: the false side has none
	if cmp.Op == token.EQL {
		failure = 0
	}
	return testsOnlyLog(cmp, failure)
}

func (u *usage) handedOnVar(alloc *ssa.Alloc) {
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef, *ssa.MakeClosure, *ssa.Store:
		case *ssa.UnOp:
			if r.Op == token.MUL {
				u.handedOn(r)
				continue
			}
			u.value = true
		default:
			u.value = true
		}
	}
}

func (u *usage) saw(isErr, nilIsError bool) {
	if !isErr {
		u.value = true
		return
	}
	u.sawErr(nilIsError, false)
}

func (u *usage) sawErr(nilIsError, sentinelOnly bool) {
	if !nilIsError {
		return
	}
	if sentinelOnly {
		u.nilOnly = true
	} else {
		u.gatingErr = true
	}
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// isNilSentinel reports whether v is go-redis's redis.Nil (a constant of its
// internal RedisError type) or redigo's ErrNil (a variable).
func isNilSentinel(v ssa.Value) bool {
	switch x := ssautil.Unwrap(v).(type) {
	case *ssa.Const:
		s, ok := ssautil.ConstString(x)
		n, named := x.Type().(*types.Named)
		return ok && named && s == "redis: nil" && n.Obj().Name() == "RedisError"
	case *ssa.UnOp:
		g, ok := x.X.(*ssa.Global)
		return ok && g.Pkg != nil && clients.NilErrors[g.Pkg.Pkg.Path()] == g.Name()
	}
	return false
}

// asserted reports whether the acquisition is in a test and its result only
// goes to assertions (assert.True(t, ok)): a test of a client or a cache, not
// a lock.
func (op *Op) asserted() bool {
	call, ok := op.Instr.(*ssa.Call)
	if !ok || !op.inTestFile(op.Pos()) {
		return false
	}
	uses := 0
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		if depth > 6 || v.Referrers() == nil {
			return true
		}
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case *ssa.DebugRef:
			case *ssa.Extract, *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface:
				if !walk(r.(ssa.Value), depth+1) {
					return false
				}
			case *ssa.Call:
				obj, recv, _ := ssautil.Callee(r.Common())
				switch {
				case obj != nil && obj.Pkg() != nil && isAssertion(obj.Pkg().Path()):
					uses++
				case recv == v && obj != nil && obj.Pkg() != nil && clients.IsClient(obj.Pkg().Path()):
					if !walk(r, depth+1) { // Val, Result
						return false
					}
				default:
					return false
				}
			case *ssa.Store:
				// Stored into the varargs of an assertion: its call decides.
				ia, ok := r.Addr.(*ssa.IndexAddr)
				if !ok || !walk(ia.X, depth+1) {
					return false
				}
			case *ssa.Slice:
				if !walk(r, depth+1) {
					return false
				}
			case *ssa.IndexAddr:
			default:
				return false
			}
		}
		return true
	}
	return walk(call, 0) && uses > 0
}

// isAssertion reports whether path is a test assertion package.
func isAssertion(path string) bool {
	for _, p := range []string{"github.com/stretchr/testify", "gotest.tools", "github.com/onsi/gomega", "github.com/smartystreets/goconvey"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}
