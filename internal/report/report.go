// Package report is the one way lockvet's checks emit diagnostics, so that no
// check can forget the rules every diagnostic obeys: nothing is reported in
// generated files, whose authors cannot act on it, and //lockvet:ignore
// directives silence what they name, whichever driver runs the check.
package report

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/directive"
)

// Reporter emits one check's diagnostics for one package.
type Reporter struct {
	Pass       *analysis.Pass
	check      string
	generated  map[*token.File]bool
	directives map[*token.File][]*directive.Directive
	reported   map[reportKey]bool
}

// reportKey is a diagnostic's place and text: the same report at the same
// place is made once, however many ways a check reaches it.
type reportKey struct {
	pos token.Pos
	msg string
}

// Run adapts a check to an analyzer's Run: everything the check reports goes
// through a Reporter, and afterwards the directives naming the check that
// silenced nothing or give no reason are reported too.
func Run(check func(*Reporter) error) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		r := &Reporter{
			Pass:       pass,
			check:      pass.Analyzer.Name,
			generated:  make(map[*token.File]bool),
			directives: make(map[*token.File][]*directive.Directive),
			reported:   make(map[reportKey]bool),
		}
		for _, f := range pass.Files {
			tf := pass.Fset.File(f.FileStart)
			r.generated[tf] = generated(f)
			r.directives[tf] = directive.Parse(pass.Fset, f)
		}
		err := check(r)
		r.finish()
		return nil, err
	}
}

// At reports msg at [pos, end), with optional fixes.
func (r *Reporter) At(pos, end token.Pos, msg string, fixes ...analysis.SuggestedFix) {
	tf := r.Pass.Fset.File(pos)
	if tf == nil || r.generated[tf] || r.reported[reportKey{pos, msg}] {
		return
	}
	r.reported[reportKey{pos, msg}] = true
	// The line as written, after //line directives, as directives count it.
	// A file that cgo translated maps back to its source that way; a fix must
	// not edit the translation, which lives in the build cache.
	posn := r.Pass.Fset.Position(pos)
	line := posn.Line
	if posn.Filename != tf.Name() {
		fixes = nil
	}
	silenced := false
	for _, d := range r.directives[tf] {
		if d.Covers(r.check, line) && d.Reason != "" {
			d.Used, silenced = true, true
		}
	}
	if !silenced {
		r.Pass.Report(analysis.Diagnostic{Pos: pos, End: end, Message: msg, SuggestedFixes: fixes})
	}
}

// Generated reports whether pos is in a generated file, where nothing is
// reported: a problem found there is reported where it is used instead.
func (r *Reporter) Generated(pos token.Pos) bool {
	tf := r.Pass.Fset.File(pos)
	return tf != nil && r.generated[tf]
}

// Once reports msg at pos unless a report with the same msg was made under
// the same key (an empty key never matches): a problem said once per calling
// function, not once per line.
func (r *Reporter) Once(key string, pos token.Pos, msg string, fixes ...analysis.SuggestedFix) {
	if key != "" {
		k := reportKey{token.NoPos, key + "\x00" + msg}
		if r.reported[k] {
			return
		}
		r.reported[k] = true
	}
	r.At(pos, pos, msg, fixes...)
}

func (r *Reporter) finish() {
	for tf, ds := range r.directives {
		if r.generated[tf] {
			continue
		}
		for _, d := range ds {
			switch {
			case len(d.Checks) == 0:
				r.Pass.Reportf(d.Pos, "lockvet directive names no check: write //lockvet:ignore CHECK reason")
			case !d.Names(r.check):
			case d.Reason == "":
				r.Pass.Reportf(d.Pos, "lockvet directive for %s gives no reason: say why the finding is wrong", r.check)
			case !d.Used:
				r.Pass.Reportf(d.Pos, "lockvet directive for %s suppresses nothing: remove it", r.check)
			}
		}
	}
}

// generated reports whether f says it was generated, as [ast.IsGenerated]
// does, except for the marker cgo puts on every file it translates: the file
// it read (it keeps the comments) may be handwritten, and findings in it are
// reported there.
func generated(f *ast.File) bool {
	const prefix, suffix = "// Code generated ", " DO NOT EDIT."
	for _, group := range f.Comments {
		if group.Pos() > f.Package {
			break
		}
		for _, c := range group.List {
			for _, line := range strings.Split(c.Text, "\n") {
				gen, ok := strings.CutPrefix(line, prefix)
				if gen, ok2 := strings.CutSuffix(gen, suffix); ok && ok2 && gen != "by cmd/cgo;" {
					return true
				}
			}
		}
	}
	return false
}
