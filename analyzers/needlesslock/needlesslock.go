package needlesslock

import (
	_ "embed"

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
		if len(reg.Writes) == 0 || reg.External != "" || reg.Unknown != "" {
			continue
		}
		pos := l.Acquire.Pos()
		r.At(pos, pos, "lock only guards database work: "+advice(reg))
	}
	return nil
}

// advice names the replacement that fits what the region does.
func advice(sum *effects.Region) string {
	if w := claim(sum); w != nil {
		what := "the conditional UPDATE of " + w.Stmt.Table
		if w.Stmt.Kind == sqltext.Insert {
			what = "the INSERT … ON CONFLICT DO NOTHING into " + w.Stmt.Table
		}
		return what + " already lets only one caller through; drop the lock"
	}
	read := make(map[string]bool)
	for _, t := range sum.Reads {
		read[t.Table] = true
	}
	for _, w := range sum.Writes {
		if w.InLoop {
			return "a UNIQUE-keyed task table or a database advisory lock serializes the job without a TTL"
		}
	}
	for _, w := range sum.Writes {
		if !read[w.Stmt.Table] {
			continue
		}
		switch w.Stmt.Kind {
		case sqltext.Update:
			return "read, check and update " + w.Stmt.Table + " in one conditional UPDATE (… AND status = $2) and check RowsAffected"
		case sqltext.Insert:
			return "a UNIQUE constraint on " + w.Stmt.Table + " with INSERT … ON CONFLICT DO NOTHING replaces the check-then-insert"
		}
	}
	return "SELECT … FOR UPDATE in a transaction serializes it without a TTL"
}

// claim returns the write that already decides which caller goes on, when the
// region's other writes run only for the caller it lets through.
func claim(sum *effects.Region) *effects.RegionWrite {
	var found *effects.RegionWrite
	for i, w := range sum.Writes {
		switch {
		case w.Claims():
			if found == nil {
				found = &sum.Writes[i]
			}
		case !w.Serialized:
			return nil
		}
	}
	return found
}
