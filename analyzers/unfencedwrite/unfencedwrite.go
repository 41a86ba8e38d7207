package unfencedwrite

import (
	_ "embed"
	"fmt"
	"go/token"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/checkdoc"
	"github.com/lockvet/lockvet/internal/effects"
	"github.com/lockvet/lockvet/internal/guard"
	"github.com/lockvet/lockvet/internal/lockmodel"
	"github.com/lockvet/lockvet/internal/report"
	"github.com/lockvet/lockvet/internal/sqltext"
)

//go:embed doc.go
var doc string

// Analyzer reports SQL writes under a TTL lock that are not fenced.
var Analyzer = guard.Protect(&analysis.Analyzer{
	Name:     "unfencedwrite",
	Doc:      checkdoc.Extract(doc, "unfencedwrite"),
	URL:      "https://github.com/lockvet/lockvet/tree/main/analyzers/unfencedwrite",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer, effects.Analyzer},
	Run:      report.Run(run),
})

// fence names the fencing-token columns: -unfencedwrite.fence. The fix writes
// the first.
var fence = columns{"fencing_token"}

func init() {
	Analyzer.Flags.Var(&fence, "fence", "comma-separated names of fencing-token `columns`")
}

// columns are SQL column names, lower-cased as sqltext reads them.
type columns []string

func (c *columns) String() string { return strings.Join(*c, ",") }

func (c *columns) Set(list string) error {
	var next columns
	for _, name := range strings.Split(list, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		if !isIdent(name) {
			return fmt.Errorf("bad column name %q: want a SQL identifier", name)
		}
		next = append(next, name)
	}
	if len(next) == 0 {
		return fmt.Errorf("no column named: want at least one fencing-token column")
	}
	*c = next
	return nil
}

func (c columns) set() map[string]bool {
	m := make(map[string]bool, len(c))
	for _, name := range c {
		m[name] = true
	}
	return m
}

func isIdent(s string) bool {
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

func run(r *report.Reporter) error {
	model := r.Pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	eff := r.Pass.ResultOf[effects.Analyzer].(*effects.Result)
	if len(model.Locks)+len(model.Callbacks) == 0 || len(eff.Of) == 0 {
		return nil
	}
	cols := fence.set()
	// The writes of each call, with the lock they are made under (nil for a
	// callback run under a lock another function holds); a call under two
	// locks is judged under the first.
	type job struct {
		lock   *lockmodel.Lock
		region int
		reads  []effects.Read
		writes []effects.RegionWrite
	}
	jobs := make(map[ssa.CallInstruction]*job)
	var calls []ssa.CallInstruction
	add := func(i int, l *lockmodel.Lock, reg *effects.Region) {
		for _, w := range reg.Writes {
			j := jobs[w.Call]
			if j == nil {
				j = &job{lock: l, region: i, reads: reg.Reads}
				jobs[w.Call] = j
				calls = append(calls, w.Call)
			}
			if j.region == i {
				j.writes = append(j.writes, w)
			}
		}
	}
	for i, l := range model.Locks {
		add(i, l, eff.Lock(l))
	}
	for i, cb := range model.Callbacks {
		add(len(model.Locks)+i, nil, eff.Callback(cb))
	}
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].Pos() < calls[j].Pos() })
	for _, call := range calls {
		j := jobs[call]
		for _, w := range j.writes {
			f := judge(w, j.lock, cols)
			var fixes []analysis.SuggestedFix
			if w.SQL != nil {
				fixes = fenceFix(r.Pass, j.lock, w.SQL, f.v)
			}
			if checkWrite(r, call, w, f, j.reads, fixes) {
				break // one report per call
			}
		}
	}
	return nil
}

// checkWrite reports a write if it needs it, and says whether it did.
func checkWrite(r *report.Reporter, call ssa.CallInstruction, w effects.RegionWrite, f finding, reads []effects.Read, fixes []analysis.SuggestedFix) bool {
	where := ""
	if w.Callee != "" {
		where = " (in " + w.Callee + ")"
	}
	pos := callPos(call)
	switch {
	case f.v == unfenced && w.Stmt.Kind == sqltext.Insert && w.Stmt.OnConflict == "nothing":
		r.At(pos, pos, "unfenced write"+where+" under a TTL lock: ON CONFLICT ("+w.Stmt.ConflictTarget[0]+") never fires on a key drawn fresh, so after the lease expires it can repeat a newer holder's insert; conflict on a key of the work itself", fixes...)
	case f.v == unfenced && w.Stmt.Kind == sqltext.Insert && w.Stmt.OnConflict == "":
		r.At(pos, pos, "unfenced write"+where+" under a TTL lock: after the lease expires it can repeat a newer holder's insert; "+uniqueAdvice(w.Stmt, reads), fixes...)
	case f.v == unfenced:
		r.At(pos, pos, "unfenced write"+where+" under a TTL lock: after the lease expires it can overwrite a newer holder's work; make it conditional on a fencing token or on the row's state", fixes...)
	case f.v == lostUpdate, f.v == badToken:
		table := ""
		if w.Stmt.Table != "" {
			// An ORM's model names no table lockvet can read.
			table = " to " + w.Stmt.Table
		}
		r.At(pos, pos, "write"+where+table+" "+f.what)
	case (f.v == tokenFenced || f.v == conditional) && !w.Checked:
		r.At(pos, pos, "result of the conditional write"+where+" is ignored: a write the database refused passes as done; check RowsAffected")
	default:
		return false
	}
	return true
}

func callPos(call ssa.CallInstruction) token.Pos {
	if p := call.Common().Pos(); p.IsValid() {
		return p
	}
	return call.Pos()
}

// uniqueAdvice says which key makes an insert idempotent: the columns the
// region looked the table up by before inserting (the check a UNIQUE index
// makes for it), else any key of the row's own.
func uniqueAdvice(st sqltext.Stmt, reads []effects.Read) string {
	for _, rd := range reads {
		if rd.Table == st.Table && st.Table != "" && len(rd.Keys) > 0 {
			return "CREATE UNIQUE INDEX ON " + st.Table + " (" + strings.Join(rd.Keys, ", ") + ") and insert with ON CONFLICT DO NOTHING"
		}
	}
	return "give the row a UNIQUE key and insert with ON CONFLICT DO NOTHING"
}
