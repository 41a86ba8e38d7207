package lockmodel

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// libraryOps turns a lock library's call into an operation. The key is the lock
// object itself: m.Lock() and m.Unlock() on one *redsync.Mutex, or bsm's
// Obtain and the Release of the lock it returned.
func libraryOps(b *opBuilder, row *clients.Func, obj *types.Func, recv ssa.Value, args []ssa.Value) bool {
	var op *Op
	switch row.Role {
	case clients.LockAcquire:
		op = b.op(Acquire, obj.Name(), recv)
	case clients.LockRelease:
		op = b.op(Release, obj.Name(), recv)
		op.Checked = true
	case clients.LockRefresh:
		op = b.op(Refresh, obj.Name(), recv)
		op.Checked = true
	case clients.LockHeader:
		op = b.op(Count, obj.Name(), recv)
		op.Token, op.Grant = true, true
	case clients.LockObtain:
		op = resultOp(b, Acquire, obj.Name(), 0)
	case clients.LockCancel:
		op = resultOp(b, Acquire, obj.Name(), 1)
	default:
		return false
	}
	op.Library, op.NilIsError = true, true
	return true
}

// resultOp makes an operation keyed by one result of the call: the lock object
// bsm's Obtain returns, or the release func rueidislock's WithContext returns.
func resultOp(b *opBuilder, kind Kind, cmd string, index int) *Op {
	call, ok := b.instr.(*ssa.Call)
	if !ok {
		return b.op(kind, cmd, nil)
	}
	op := b.op(kind, cmd, call)
	op.setKey(opaque(call))
	if ex := ssautil.Extract(call, index); ex != nil {
		op.setKey(keyValue(ex))
		op.KeyExpr = ex
	}
	return op
}

// cancelCall recognises a call of the release func rueidislock returned.
func cancelCall(fn *ssa.Function, instr ssa.CallInstruction) *Op {
	c := instr.Common()
	ex, ok := c.Value.(*ssa.Extract)
	if !ok || c.IsInvoke() || ex.Index != 1 {
		return nil
	}
	call, ok := ex.Tuple.(*ssa.Call)
	if !ok {
		return nil
	}
	obj, _, _ := ssautil.Callee(call.Common())
	if obj == nil || obj.Pkg() == nil {
		return nil
	}
	row := clients.Lookup(obj.Pkg().Path(), ssautil.RecvName(obj), obj.Name())
	if row == nil || row.Role != clients.LockCancel {
		return nil
	}
	op := &Op{Kind: Release, Instr: instr, Fn: fn, KeyExpr: ex,
		Command: "cancel", Checked: true, Library: true}
	op.setKey(keyValue(ex))
	return op
}
