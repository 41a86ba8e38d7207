package needlesslock

import (
	_ "embed"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/checkdoc"
	"github.com/lockvet/lockvet/internal/effects"
	"github.com/lockvet/lockvet/internal/guard"
	"github.com/lockvet/lockvet/internal/lockmodel"
	"github.com/lockvet/lockvet/internal/report"
	"github.com/lockvet/lockvet/internal/sqltext"
)

//go:embed doc.go
var doc string

// Analyzer reports locks that only guard what the database can serialize.
var Analyzer = guard.Protect(&analysis.Analyzer{
	Name:     "needlesslock",
	Doc:      checkdoc.Extract(doc, "needlesslock"),
	URL:      "https://github.com/lockvet/lockvet/tree/main/analyzers/needlesslock",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer, effects.Analyzer},
	Run:      report.Run(run),
})

func run(r *report.Reporter) error {
	model := r.Pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	eff := r.Pass.ResultOf[effects.Analyzer].(*effects.Result)
	if len(eff.Of) == 0 {
		return nil
	}
	seen := make(map[*lockmodel.Op]bool)
	for _, l := range model.Locks {
		if seen[l.Acquire] {
			continue
		}
		seen[l.Acquire] = true
		reg := eff.Lock(l)
		if len(reg.Writes) == 0 || reg.External != "" || reg.Unknown != "" || usesToken(l, reg) {
			continue
		}
		pos := l.Acquire.Pos()
		r.At(pos, pos, "lock only guards database work: "+advice(reg))
	}
	return nil
}

// usesToken reports whether a write of the region uses the fencing token
// the lock's grant issued: without the lock there is no token, and two
// workers that each drew one would both succeed.
func usesToken(l *lockmodel.Lock, reg *effects.Region) bool {
	for _, w := range reg.Writes {
		for _, a := range w.Args {
			if src, _ := l.Source(a); src == lockmodel.SourceGrant {
				return true
			}
		}
	}
	return false
}

// advice names the replacement that fits what the region does, in the
// statement's own table, columns and placeholder style.
func advice(reg *effects.Region) string {
	if w := claim(reg); w != nil {
		what := "the conditional UPDATE of " + w.Stmt.Table
		if w.Stmt.Kind == sqltext.Insert {
			what = "the INSERT … ON CONFLICT DO NOTHING into " + w.Stmt.Table
		}
		return what + " already lets only one caller through; drop the lock"
	}
	for _, w := range reg.Writes {
		if w.Keyed && len(reg.Writes) == 1 {
			return "the UNIQUE key of " + w.Stmt.Table + " already refuses a second insert; drop the lock and treat the duplicate-key error as done"
		}
	}
	for _, w := range reg.Writes {
		if w.InLoop {
			return "a UNIQUE-keyed task table or a database advisory lock serializes the job without a TTL"
		}
	}
	for _, w := range reg.Writes {
		var keys []string
		read := false
		for _, r := range reg.Reads {
			if r.Table == w.Stmt.Table {
				read, keys = true, r.Keys
				break
			}
		}
		if !read {
			continue
		}
		switch w.Stmt.Kind {
		case sqltext.Update:
			if len(w.Stmt.Set) > 0 {
				return "read, check and update " + w.Stmt.Table + " in one conditional UPDATE (" + conditional(w.Stmt) + ") and check RowsAffected"
			}
		case sqltext.Insert:
			on := w.Stmt.Table
			if len(keys) > 0 {
				on += " (" + strings.Join(keys, ", ") + ")"
			}
			insert := "INSERT … ON CONFLICT DO NOTHING"
			if w.Stmt.NextPlaceholder("") == "?" {
				insert += " (MySQL: INSERT IGNORE)"
			}
			return "a UNIQUE constraint on " + on + " with " + insert + " replaces the check-then-insert"
		}
	}
	return "SELECT … FOR UPDATE in a transaction serializes it without a TTL"
}

// conditional writes the WHERE an update needs to pin the state it checked
// in Go: its own WHERE and the first column it sets, compared with the value
// expected.
func conditional(st sqltext.Stmt) string {
	col := st.Set[0].Column
	var conds []string
	for _, c := range st.Where {
		conds = append(conds, c.Column+" "+c.Op+" "+c.Operand.Text)
	}
	conds = append(conds, col+" = "+st.NextPlaceholder("expected_"+col))
	return "… WHERE " + strings.Join(conds, " AND ")
}

// claim returns the write that already decides which caller goes on, when the
// region's other writes run only for the caller it lets through.
func claim(reg *effects.Region) *effects.RegionWrite {
	var found *effects.RegionWrite
	for i, w := range reg.Writes {
		switch {
		case w.Claims():
			if found == nil {
				found = &reg.Writes[i]
			}
		case !w.Serialized:
			return nil
		}
	}
	return found
}
