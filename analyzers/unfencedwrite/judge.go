package unfencedwrite

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/effects"
	"github.com/lockvet/lockvet/internal/lockmodel"
	"github.com/lockvet/lockvet/internal/sqlcall"
	"github.com/lockvet/lockvet/internal/sqltext"
)

// verdict is what the database does with a write from a holder whose lease ran out.
type verdict int

const (
	notJudged   verdict = iota // not a write lockvet judges (a read, a DELETE, unreadable SQL)
	unfenced                   // it accepts it
	lostUpdate                 // it accepts it: the WHERE tests the column but does not pin it
	badToken                   // it accepts it: the "fencing token" is none
	tokenFenced                // it refuses it: the fencing token is old
	conditional                // it refuses it: the row's state moved on
	serialized                 // another statement lets one caller through: a row lock, a won claim
	idempotent                 // a repeat changes nothing (INSERT … ON CONFLICT DO NOTHING)
)

// finding is a verdict, with what a report says of it when the statement
// alone does not.
type finding struct {
	v    verdict
	what string // lostUpdate, badToken: what is wrong and what to do
}

// judge decides how a write fares when its holder's lease has run out; l is
// the lock it is made under, nil for a callback run under another function's
// lock. An upsert's DO UPDATE is judged as an UPDATE: it overwrites unless its
// WHERE says otherwise. A WHERE lockvet cannot read at all is not judged
// unfenced.
func judge(w effects.RegionWrite, l *lockmodel.Lock, fence map[string]bool) finding {
	st := w.Stmt
	switch {
	case namesNothing(st):
		return finding{} // a generic mapper's write: table and columns spliced in at run time
	case w.Serialized && st.Kind.Writes():
		return finding{v: serialized}
	case st.Kind == sqltext.Insert && (st.OnConflict == "nothing" && !freshConflict(w) || w.Keyed):
		return finding{v: idempotent}
	case st.Kind == sqltext.Insert && st.OnConflict == "update", st.Kind == sqltext.Update, st.Kind == sqltext.Merge:
		return judgeUpdate(w, l, fence)
	case st.Kind == sqltext.Insert, st.Kind == sqltext.Replace:
		return finding{v: unfenced}
	}
	return finding{}
}

// judgeUpdate judges an UPDATE by what its WHERE pins: a compare-and-set on
// the row's state, a fencing token the lock issued, or nothing.
func judgeUpdate(w effects.RegionWrite, l *lockmodel.Lock, fence map[string]bool) finding {
	st := w.Stmt
	for _, p := range st.Pins() {
		if p.Pin >= sqltext.Delta && !fence[p.Assign.Column] {
			return finding{v: conditional}
		}
	}
	for _, c := range st.Where {
		if fence[c.Column] && (c.Op == "<" || c.Op == "<=") {
			return judgeFence(w, l, c)
		}
	}
	if p, ok := st.LostUpdate(); ok {
		return finding{v: lostUpdate, what: notPinned(p)}
	}
	if st.WhereOpaque && (len(st.Where) == 0 || mentionsAny(whereText(w.Text), assigned(st))) {
		// Part of the WHERE lockvet could not read (an OR, a hole in a
		// template) may test the row's state: silence over a guess.
		return finding{}
	}
	return finding{v: unfenced}
}

// judgeFence judges a write that compares fencing-token column c: it must
// store what it compares, and that must be a token this lock's grant issued.
func judgeFence(w effects.RegionWrite, l *lockmodel.Lock, c sqltext.Cond) finding {
	var stored *sqltext.Assign
	for i, a := range w.Stmt.Set {
		if a.Column == c.Column {
			stored = &w.Stmt.Set[i]
		}
	}
	switch {
	case stored == nil:
		return finding{v: badToken, what: fmt.Sprintf(
			"compares %s but never stores it: a newer holder's token is never recorded, so a stale one passes too; store the token it compares (SET %s = %s)",
			c.Column, c.Column, c.Operand.Text)}
	case !sameValue(w, stored.Value, c.Operand):
		return finding{v: badToken, what: fmt.Sprintf(
			"compares %s with %s, not with the token it stores (%s): a stale token can pass; compare and store the same token",
			c.Column, c.Operand.Text, stored.Value.Text)}
	}
	if l == nil {
		return finding{v: tokenFenced} // the lock, and its token, are another function's
	}
	src, name := l.Source(arg(w, c.Operand))
	const use = "use the token the lock's grant returns (an INCR in the script that takes the lock, etcd's revision)"
	var what string
	switch src {
	case lockmodel.SourceSeparate:
		what = fmt.Sprintf("compares %s with an %s taken after the lock, which is not a fencing token: a holder that pauses before it draws a newer token than its successor's; INCR in the script that takes the lock and use its result", c.Column, name)
	case lockmodel.SourceLockValue:
		what = fmt.Sprintf("compares %s with the lock's value, which is not a fencing token: it is not issued in order; %s", c.Column, use)
	case lockmodel.SourceFresh:
		what = fmt.Sprintf("compares %s with %s, which is not a fencing token: it is not issued with the lock; %s", c.Column, name, use)
	case lockmodel.SourceCaller:
		what = fmt.Sprintf("compares %s with %s, a parameter, which is not a fencing token: this lock's grant did not issue it; %s", c.Column, name, use)
	default:
		return finding{v: tokenFenced}
	}
	return finding{v: badToken, what: what}
}

// arg returns the value placeholder o binds at the write, nil when unknown.
func arg(w effects.RegionWrite, o sqltext.Operand) ssa.Value {
	if o.Kind != sqltext.OpPlaceholder || o.Name != "" || o.Placeholder < 1 || o.Placeholder > len(w.Args) {
		return nil
	}
	return w.Args[o.Placeholder-1]
}

// sameValue reports whether a stored value and a compared one are the same:
// the same text, or placeholders bound to the same value.
func sameValue(w effects.RegionWrite, stored, compared sqltext.Operand) bool {
	if strings.EqualFold(strings.TrimSpace(stored.Text), strings.TrimSpace(compared.Text)) {
		return true
	}
	a, b := arg(w, stored), arg(w, compared)
	return a != nil && a == b
}

// notPinned says what is wrong with a write whose WHERE tests a column it
// changes without pinning the value it replaces, and what to do.
func notPinned(p sqltext.ColumnPin) string {
	col := p.Assign.Column
	fix := fmt.Sprintf("compare with the value read (AND %s = $old) or change it relatively (%s = %s - $n WHERE %s >= $n)", col, col, col, col)
	switch {
	case p.Assign.RefsSelf:
		fix = fmt.Sprintf("guard the change with its own delta (%s = %s - $n WHERE %s >= $n)", col, col, col)
	case p.Assign.Value.Kind == sqltext.OpLiteral:
		fix = fmt.Sprintf("compare with the state it expects (AND %s = …)", col)
	}
	return fmt.Sprintf("tests %s (%s %s %s) but does not pin the value it replaces: after the lease expires it can overwrite a newer holder's %s; %s",
		col, p.Cond.Column, p.Cond.Op, p.Cond.Operand.Text, col, fix)
}

func assigned(st sqltext.Stmt) map[string]bool {
	set := make(map[string]bool)
	for _, a := range st.Set {
		set[a.Column] = true
	}
	return set
}

// whereText is the statement from its last WHERE on, lower-cased.
func whereText(text string) string {
	lower := strings.ToLower(text)
	if i := strings.LastIndex(lower, "where"); i >= 0 {
		return lower[i:]
	}
	return ""
}

// mentionsAny reports whether text names any of the columns as a word.
func mentionsAny(text string, cols map[string]bool) bool {
	for col := range cols {
		for i := strings.Index(text, col); i >= 0; {
			end := i + len(col)
			if (i == 0 || !isWord(text[i-1])) && (end == len(text) || !isWord(text[end])) {
				return true
			}
			next := strings.Index(text[end:], col)
			if next < 0 {
				break
			}
			i = end + next
		}
	}
	return false
}

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// freshConflict reports an ON CONFLICT (c) DO NOTHING whose c is drawn
// fresh for each insert (a uuid made in Go, gen_random_uuid(), a serial
// left to its default): the conflict never fires, so a repeated insert goes
// in.
func freshConflict(w effects.RegionWrite) bool {
	st := w.Stmt
	if len(st.ConflictTarget) != 1 {
		return false
	}
	col := st.ConflictTarget[0]
	o, ok := st.ValueOf(col)
	switch {
	case !ok:
		return col == "id" && len(st.Columns) > 0 && len(st.Values) == len(st.Columns) // left to its default
	case sqlcall.FreshSQL(o):
		return true
	case o.Kind == sqltext.OpPlaceholder && o.Placeholder > 0 && o.Placeholder <= len(w.Args):
		return w.Args[o.Placeholder-1] != nil && sqlcall.Fresh(w.Args[o.Placeholder-1])
	}
	return false
}

// namesNothing reports an UPDATE or DELETE whose table, every column it
// sets and every column its WHERE tests are spliced into its text at run
// time (UPDATE %s SET %s WHERE %s = $n): a generic mapper's statement, of
// no row or column lockvet can name.
func namesNothing(st sqltext.Stmt) bool {
	if st.Kind != sqltext.Update && st.Kind != sqltext.Delete || !strings.HasPrefix(st.Table, "__hole") || st.WhereOpaque {
		return false
	}
	for _, a := range st.Set {
		if !strings.HasPrefix(a.Column, "__hole") {
			return false
		}
	}
	for _, c := range st.Where {
		if !strings.HasPrefix(c.Column, "__hole") {
			return false
		}
	}
	return true
}
