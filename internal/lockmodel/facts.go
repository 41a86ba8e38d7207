package lockmodel

import (
	"encoding/json"
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/guard"
	"github.com/lockvet/lockvet/internal/link"
)

// WrapperFact describes a function that acquires, releases or refreshes a key it
// takes from a parameter or a receiver field, so that `locker.TryLock(ctx, key)` …
// `locker.Unlock(ctx, key)` in another package is seen as one lock.
type WrapperFact struct {
	Kind    Kind
	Key     Key    // key template: {pN} is the Nth parameter, the receiver first
	Command string // the command the wrapper sends
	// Acquire: where the stored value comes from, and whether it is a constant.
	ValueParam int
	ConstValue bool
	// RepeatsKey: the value is computed from the key's own parts only
	// (ConstValue is set too): every holder stores the same one.
	RepeatsKey bool
	// ValueField: the value is this field of the first parameter (the lock
	// object), which its constructor may have set from its caller's argument.
	ValueField string
	// Fixed: the value is a field of the lock object that only its
	// constructor sets ("RedisLock.id"), though the object takes its keys from
	// its callers: every acquisition through it stores, or every release
	// compares, the same value.
	Fixed string
	// Acquire: the wrapper drops whether it acquired (_, err := SetNX(…);
	// return err): its callers cannot know. Such a wrapper makes a lock only
	// with a deferred release, the lock idiom; a cache filled if absent and
	// invalidated later is none.
	Drops bool
	// Acquire: where the TTL comes from (a parameter, or the wrapper's own TTL).
	TTLParam int
	TTL      TTL
	// SplitTTL: the wrapper sets the key without a TTL, then gives it one in
	// a second command (SETNX then EXPIRE); TTLParam is the EXPIRE's.
	SplitTTL bool
	// Acquire: the result that carries a fencing token (-1: none), and
	// whether it is issued with the grant (Op.Grant).
	Token int
	Grant bool
	// Acquire: the result that is a lease struct holding the key in field
	// LeaseKey (-1: none), which the lease's own Release reads back.
	Lease    int
	LeaseKey string
	// Acquire: the result that is a func releasing the lock (-1: none), as
	// in unlock, err := lock(ctx, key); Unlock is what that func's release
	// is.
	UnlockResult int
	Unlock       *WrapperFact
	// Release: the wrapper releases each key of its variadic parameter Key.
	Spread bool
	// Release, Refresh: how ownership is checked.
	Checked bool
	TwoStep bool // GET, compare in Go, then DEL
	// Impl names the implementation of an interface method whose fact the
	// link step found, for messages; ImplFunc is its full name and ImplPkg
	// its package path. "" for facts of the method itself.
	Impl     string `json:"-"`
	ImplFunc string `json:"-"`
	ImplPkg  string `json:"-"`
	// Forwards: the wrapper sends its command under the command's own name
	// with key, value and TTL all from its parameters (Cache.Del(ctx,
	// keys...)). It decides nothing about a lock: what its caller does with
	// it is reported at the call, wherever the link step finds it paired.
	Forwards bool
	// Reported: the wrapper pairs with another method of its own type, so its own
	// problems were reported where it is declared, not at each caller.
	Reported bool
}

// AFact marks WrapperFact as an analysis fact.
func (*WrapperFact) AFact() {}

func (f *WrapperFact) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s via %s", kindNames[f.Kind], f.Key, f.Command)
	if f.ConstValue {
		b.WriteString(" const")
	}
	if f.RepeatsKey {
		b.WriteString(" repeats-key")
	}
	if f.ValueField != "" {
		b.WriteString(" value={p0}." + f.ValueField)
	}
	if f.Fixed != "" {
		b.WriteString(" fixed=" + f.Fixed)
	}
	if f.Drops {
		b.WriteString(" drops")
	}
	switch {
	case f.SplitTTL:
		b.WriteString(" expire-after")
	case f.Kind == Acquire && f.TTL == TTLNone && f.TTLParam < 0:
		b.WriteString(" nottl")
	}
	if f.Token >= 0 && f.Kind == Acquire {
		fmt.Fprintf(&b, " token=r%d", f.Token)
		if f.Grant {
			b.WriteString(" granted")
		}
	}
	if f.Lease >= 0 && f.Kind == Acquire {
		fmt.Fprintf(&b, " lease=r%d.%s", f.Lease, f.LeaseKey)
	}
	if f.Unlock != nil {
		fmt.Fprintf(&b, " unlock=r%d(%s)", f.UnlockResult, f.Unlock)
	}
	if f.Forwards {
		b.WriteString(" forwards")
	}
	if f.Spread {
		b.WriteString(" each")
	}
	if f.Checked {
		b.WriteString(" checked")
	}
	if f.TwoStep {
		b.WriteString(" twostep")
	}
	return b.String()
}

var kindNames = map[Kind]string{Acquire: "acquire", Release: "release", Refresh: "refresh", Read: "read"}

// CommandFact describes a function that sends its parameters on as a raw
// command: parameter Name holds the command name (-1 when the name is the first
// of the arguments, as in go-redis Do), and variadic parameter Args the rest.
type CommandFact struct {
	Name, Args int
}

// AFact marks CommandFact as an analysis fact.
func (*CommandFact) AFact() {}

func (f *CommandFact) String() string {
	if f.Name < 0 {
		return fmt.Sprintf("command args={p%d}", f.Args)
	}
	return fmt.Sprintf("command name={p%d} args={p%d}", f.Name, f.Args)
}

// PackageFact marks a package that declares lock wrappers, so that packages
// importing it are not skipped by the fast path.
type PackageFact struct{}

// AFact marks PackageFact as an analysis fact.
func (*PackageFact) AFact() {}

func (*PackageFact) String() string { return "lockapi" }

// failed tells importers that lockmodel panicked on a package (see guard).
type failed struct{ guard.Failed }

// linked returns the fact of type F the link step found for a call of the
// interface method m, nil without one.
func linked[F any](m *types.Func, field func(link.Facts) []byte) *F {
	facts, ok := link.Lookup(m)
	if !ok || field(facts) == nil {
		return nil
	}
	f := new(F)
	if json.Unmarshal(field(facts), f) != nil {
		return nil
	}
	return f
}

// factOf returns obj's fact of type F: the one derived in this package, or
// the one another package exported.
func factOf[F any, PF interface {
	*F
	analysis.Fact
}](pass *analysis.Pass, local map[*types.Func]PF, obj *types.Func) PF {
	if f, ok := local[obj]; ok {
		return f
	}
	f := PF(new(F))
	if obj.Pkg() != pass.Pkg && pass.ImportObjectFact(obj, f) {
		return f
	}
	return nil
}
