package lockmodel

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/logging"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// onlyLogs reports whether a test of the acquisition's result decides
// nothing: the branch taken when the lock was not acquired only logs and then
// rejoins the path taken when it was, before any work.
//
//	if err := lock(ctx, key); err != nil {
//		log.Println(err) // and on into the work anyway
//	}
//
// failure is the index of the successor taken on failure. The success side
// may defer the release on the way to the join: that is still no gate.
func onlyLogs(test *ssa.If, failure int) bool {
	b := test.Block()
	join := thinExit(b.Succs[failure])
	if join == nil || join == b || join.Dominates(b) || hasPhi(join) || exits(join) {
		return false
	}
	pass := lightBlock
	if join == b.Succs[failure] {
		// The failure side is itself the join (if ok { defer unlock() };
		// work()); a success side that gets there only through another test
		// of the result (if !ok || err != nil { log; sleep }: the error's
		// failure) has not joined it.
		pass = func(x *ssa.BasicBlock) bool { return lightBlock(x) && !retests(x, test) }
	}
	return reaches(b.Succs[1-failure], join, pass)
}

// retests reports whether block b ends in a test of the result test looks
// at: another part of the same call's result.
func retests(b *ssa.BasicBlock, test *ssa.If) bool {
	other, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	mine := make(map[*ssa.Call]bool)
	resultCalls(test.Cond, mine, 0)
	theirs := make(map[*ssa.Call]bool)
	resultCalls(other.Cond, theirs, 0)
	for c := range theirs {
		if mine[c] {
			return true
		}
	}
	return false
}

// resultCalls adds the calls v is computed from, through extractions,
// comparisons, negations and the reply's own methods (cmd.Err()).
func resultCalls(v ssa.Value, out map[*ssa.Call]bool, depth int) {
	if depth > 6 {
		return
	}
	switch x := v.(type) {
	case *ssa.Extract:
		resultCalls(x.Tuple, out, depth+1)
	case *ssa.BinOp:
		resultCalls(x.X, out, depth+1)
		resultCalls(x.Y, out, depth+1)
	case *ssa.UnOp:
		resultCalls(x.X, out, depth+1)
	case *ssa.ChangeType:
		resultCalls(x.X, out, depth+1)
	case *ssa.MakeInterface:
		resultCalls(x.X, out, depth+1)
	case *ssa.Call:
		out[x] = true
		if recv := x.Call.Signature().Recv(); recv != nil && len(x.Call.Args) > 0 && !x.Call.IsInvoke() {
			resultCalls(x.Call.Args[0], out, depth+1)
		}
	}
}

// fallsThrough reports whether the failure side of test does something
// other than logging (re-enqueues the event, records a metric) and then
// rejoins the path taken on success, with nothing telling the two apart
// after the join (no phi): the work runs whether or not the lock was taken.
//
//	if !locked {
//		if err := requeue(event); err != nil { return err }
//	}
//	process(event)
//
// Paths of the failure side that return, or call what does not return
// (t.Fatalf, os.Exit), leave; any that continue, break or reach another
// block make it no fall-through.
func fallsThrough(test *ssa.If, failure int) bool {
	b := test.Block()
	start := b.Succs[failure]
	if start == b.Succs[1-failure] || len(start.Preds) != 1 {
		return false
	}
	var join *ssa.BasicBlock
	seen := map[*ssa.BasicBlock]bool{}
	for stack := []*ssa.BasicBlock{start}; len(stack) > 0; {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if len(seen) > 32 {
			return false
		}
		if stops(x) {
			continue // t.Fatalf, os.Exit: this path leaves
		}
		for _, s := range x.Succs {
			switch {
			case start.Dominates(s):
				stack = append(stack, s)
			case join == nil || join == s:
				join = s
			default:
				return false
			}
		}
	}
	if join == nil || join == b || join.Dominates(b) || hasPhi(join) || exits(join) {
		return false
	}
	return reaches(b.Succs[1-failure], join, lightBlock)
}

// retries reports whether the failure side of test calls the acquisition
// again, on the same lock object or client, before it rejoins: a retry loop
// that falls through only once a later attempt won.
//
//	if !ok {
//		for { if ok, err = l.Acquire(); ok { break } … }
//	}
func retries(test *ssa.If, failure int, acq *ssa.Call) bool {
	if acq == nil {
		return false
	}
	obj, recv, _ := ssautil.Callee(acq.Common())
	start := test.Block().Succs[failure]
	for _, b := range test.Parent().Blocks {
		if !start.Dominates(b) {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || call == ssa.CallInstruction(acq) {
				continue
			}
			o, r, _ := ssautil.Callee(call.Common())
			if o != nil && o == obj && (recv == nil || r != nil && keyOf(r) == keyOf(recv)) {
				return true
			}
		}
	}
	return false
}

// thinExit follows the blocks that only log from start and returns the one
// block they all lead to, or nil when they lead to more than one, end the
// function or go on for long. A block that other paths reach too is where
// they lead, though it only tests (if lease != nil { defer … }).
func thinExit(start *ssa.BasicBlock) *ssa.BasicBlock {
	var exit *ssa.BasicBlock
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{start}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if len(seen) > 32 {
			return nil
		}
		if !thinBlock(b) || b != start && !start.Dominates(b) {
			if exit != nil && exit != b {
				return nil
			}
			exit = b
			continue
		}
		stack = append(stack, b.Succs...)
	}
	return exit
}

// reaches reports whether to is reachable from start through blocks that pass.
func reaches(start, to *ssa.BasicBlock, pass func(*ssa.BasicBlock) bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	for stack := []*ssa.BasicBlock{start}; len(stack) > 0; {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == to {
			return true
		}
		if seen[b] || len(seen) > 32 || !pass(b) {
			continue
		}
		seen[b] = true
		stack = append(stack, b.Succs...)
	}
	return false
}

// exits reports whether b only returns: no work runs after the test either
// way (if ok { defer unlock(…) } at the end of a function).
func exits(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		switch instr.(type) {
		case *ssa.Return, *ssa.RunDefers, *ssa.DebugRef, *ssa.UnOp:
		default:
			return false
		}
	}
	return true
}

func hasPhi(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		if _, ok := instr.(*ssa.Phi); ok {
			return true
		}
	}
	return false
}

// thinBlock reports whether a block only computes values to log and logs them.
func thinBlock(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		if !thinInstr(instr) {
			return false
		}
	}
	return true
}

// lightBlock is a thin block that may also defer calls (the release), and
// compute what they are deferred with (context.Background()).
func lightBlock(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		switch instr.(type) {
		case *ssa.Defer, *ssa.MakeClosure:
			continue
		case *ssa.Call:
			if onlyDeferred(instr.(*ssa.Call)) {
				continue
			}
		}
		if !thinInstr(instr) {
			return false
		}
	}
	return true
}

// onlyDeferred reports whether call's result is only an argument of
// deferred calls.
func onlyDeferred(call *ssa.Call) bool {
	refs := call.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, ref := range *refs {
		if _, ok := ref.(*ssa.Defer); !ok {
			return false
		}
	}
	return true
}

func thinInstr(instr ssa.Instruction) bool {
	switch x := instr.(type) {
	case *ssa.DebugRef, *ssa.Jump, *ssa.If, *ssa.Alloc, *ssa.IndexAddr, *ssa.FieldAddr,
		*ssa.Field, *ssa.Index, *ssa.Lookup, *ssa.BinOp, *ssa.MakeInterface, *ssa.ChangeType,
		*ssa.Convert, *ssa.ChangeInterface, *ssa.Slice, *ssa.Extract, *ssa.MakeSlice, *ssa.MakeMap:
		return true
	case *ssa.UnOp:
		return x.Op != token.ARROW
	case *ssa.Store:
		return localAddr(x.Addr)
	case *ssa.MapUpdate:
		_, ok := x.Map.(*ssa.MakeMap)
		return ok
	case *ssa.Call:
		return logCall(x.Common())
	}
	return false
}

// localAddr reports whether addr is in memory allocated in its own function's
// frame for a call's arguments (the ...any of a log call).
func localAddr(addr ssa.Value) bool {
	for {
		switch a := addr.(type) {
		case *ssa.IndexAddr:
			addr = a.X
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.Alloc:
			return true
		default:
			return false
		}
	}
}

// logCall reports whether a call only logs, or formats what is logged.
func logCall(c *ssa.CallCommon) bool {
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return true
	}
	obj, _, _ := ssautil.Callee(c)
	if obj != nil && obj.Pkg() == nil && obj.Name() == "Error" {
		return true // err.Error(), for the message
	}
	return obj != nil && (logging.Logs(obj) || logging.Formats(obj) || isClock(obj))
}

// isClock reports time.Now and time.Since, read for a log line's duration.
func isClock(obj *types.Func) bool {
	return obj.Pkg() != nil && obj.Pkg().Path() == "time" && (obj.Name() == "Now" || obj.Name() == "Since")
}

// stops reports whether b calls a function that does not return.
func stops(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		if call, ok := instr.(*ssa.Call); ok {
			if obj, _, _ := ssautil.Callee(call.Common()); obj != nil && logging.Stops(obj) {
				return true
			}
		}
	}
	return false
}
