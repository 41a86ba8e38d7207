// Package directive reads lockvet's suppression comments:
//
//	//lockvet:ignore CHECK[,CHECK] reason       on or above the line it silences
//	//lockvet:file-ignore CHECK[,CHECK] reason  anywhere in the file
//
// The analyzers honour them themselves, not the driver, so a directive works the
// same under the lockvet command, go vet, golangci-lint, gopls and Bazel nogo.
package directive

import (
	"go/ast"
	"go/token"
	"strings"
)

// Directive is one suppression comment.
type Directive struct {
	Pos    token.Pos
	File   bool     // file-ignore: the whole file
	Line   int      // the comment's line; it covers this line and the next
	Checks []string // the checks it names
	Reason string
	Used   bool // it silenced a diagnostic
}

const (
	linePrefix = "//lockvet:ignore"
	filePrefix = "//lockvet:file-ignore"
)

// Parse returns the directives in f.
func Parse(fset *token.FileSet, f *ast.File) []*Directive {
	var out []*Directive
	for _, group := range f.Comments {
		for _, c := range group.List {
			d := parse(c.Text)
			if d == nil {
				continue
			}
			d.Pos, d.Line = c.Pos(), fset.Position(c.Pos()).Line
			out = append(out, d)
		}
	}
	return out
}

func parse(text string) *Directive {
	d := &Directive{}
	rest, ok := strings.CutPrefix(text, filePrefix)
	if ok {
		d.File = true
	} else if rest, ok = strings.CutPrefix(text, linePrefix); !ok {
		return nil
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil // //lockvet:ignored…: not ours
	}
	// A second // ends the directive: what follows is another comment.
	rest, _, _ = strings.Cut(rest, "//")
	fields := strings.Fields(rest)
	if len(fields) > 0 {
		d.Checks = strings.Split(fields[0], ",")
		d.Reason = strings.Join(fields[1:], " ")
	}
	return d
}

// Names reports whether the directive names check.
func (d *Directive) Names(check string) bool {
	for _, c := range d.Checks {
		if c == check {
			return true
		}
	}
	return false
}

// Covers reports whether the directive silences check at line.
func (d *Directive) Covers(check string, line int) bool {
	return d.Names(check) && (d.File || line == d.Line || line == d.Line+1)
}
