package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"honnef.co/go/tools/config"
	"honnef.co/go/tools/go/buildid"
	"honnef.co/go/tools/go/loader"
	"honnef.co/go/tools/lintcmd/cache"
	"honnef.co/go/tools/lintcmd/runner"

	"github.com/lockvet/lockvet/analyzers"
	"github.com/lockvet/lockvet/internal/guard"
	"github.com/lockvet/lockvet/internal/link"
	"github.com/lockvet/lockvet/internal/link/record"
)

// result is what one run found.
type result struct {
	findings []runner.Diagnostic // sorted by position
	errors   []string            // packages that failed to load or type-check
}

// lint analyses the packages with staticcheck's runner, which keeps each
// package's diagnostics and facts in a cache: unchanged packages are not
// analysed twice. It then links the program (see package link): when
// packages call interface methods whose implementations the program has, it
// analyses those packages once more with the joined table, and their
// findings replace the first ones.
func lint(o *options) (*result, error) {
	c, err := openCache()
	if err != nil {
		return nil, err
	}
	salt, err := cacheSalt()
	if err != nil {
		return nil, err
	}
	r, err := runner.New(config.Config{}, c)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{Tests: o.tests}
	if o.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + o.tags}
	}
	for _, a := range append(o.checks, record.Analyzer) {
		guard.Protect(a)
	}
	cache.SetSalt(salt)
	link.Set(map[string]link.Facts{}, nil, nil) // a link step follows
	defer link.Set(nil, nil, nil)
	first, err := analyse(r, cfg, append(slices.Clone(o.checks), record.Analyzer), o.patterns)
	if err != nil {
		return nil, err
	}
	if len(first.byPackage) == 0 && len(first.errors) == 0 {
		return nil, fmt.Errorf("%s matched no packages", strings.Join(o.patterns, " "))
	}
	later, err := relink(r, cfg, o.checks, salt, first)
	if err != nil {
		return nil, err
	}
	return first.result(later), nil
}

// maxLinks bounds the link rounds. Each round gives facts to the methods
// that call through one more interface (a service over a repository over a
// client); real programs settle in two or three.
const maxLinks = 4

// relink joins the records, analyses the packages that call interface
// methods with the joined table, and joins again with their new records
// until the table no longer changes: what a later round found replaces an
// earlier one's, package by package. It returns nil when nothing calls an
// interface the program implements.
func relink(r *runner.Runner, cfg *packages.Config, checks []*analysis.Analyzer, salt []byte, first *run1) (*run1, error) {
	// By package; a package and its test variant each send one.
	records := make(map[string][]link.Record)
	for _, rec := range first.records {
		records[rec.Package] = append(records[rec.Package], rec)
	}
	var later *run1
	var last []byte
	for range maxLinks {
		table, paired, callers := link.Join(sortedRecords(records))
		if len(callers) == 0 {
			break
		}
		// A run's results depend on the table: key them by it.
		data, err := json.Marshal(struct {
			Table  map[string]link.Facts
			Paired map[string]bool
		}{table, paired})
		if err != nil {
			return nil, err
		}
		if string(data) == string(last) {
			break
		}
		last = data
		cache.SetSalt(append(slices.Clone(salt), data...))
		link.Set(table, paired, callers)
		next, err := analyse(r, cfg, append(slices.Clone(checks), record.Analyzer), first.listable(callers))
		if err != nil {
			return nil, err
		}
		replaced := make(map[string]bool)
		for _, rec := range next.records {
			if !replaced[rec.Package] {
				replaced[rec.Package], records[rec.Package] = true, nil
			}
			records[rec.Package] = append(records[rec.Package], rec)
		}
		later = later.merge(next)
	}
	return later, nil
}

func sortedRecords(m map[string][]link.Record) []link.Record {
	var out []link.Record
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k]...)
	}
	return out
}

// merge returns what run found with next's packages replacing run's.
func (run *run1) merge(next *run1) *run1 {
	if run == nil {
		return next
	}
	for path, ds := range next.byPackage {
		run.byPackage[path] = ds
	}
	for _, e := range next.errors {
		if !slices.Contains(run.errors, e) {
			run.errors = append(run.errors, e)
		}
	}
	return run
}

// run1 is what one run of the runner found, by package.
type run1 struct {
	byPackage map[string][]runner.Diagnostic
	errors    []string
	records   []link.Record
	// dirs maps a package path to the pattern that loads it: its own, or,
	// for an external test package (pkg_test), the package it tests, which
	// the go command can list and a path ending in _test it cannot.
	dirs map[string]string
}

// listable returns the patterns that load the given packages, each once.
func (run *run1) listable(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if d, ok := run.dirs[p]; ok {
			p = d
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// dirOf returns the import path that lists spec: its own, or for the
// external test package of x (ID "x_test [x.test]"), x.
func dirOf(spec *loader.PackageSpec) string {
	_, variant, ok := strings.Cut(spec.ID, " [")
	if !ok || !strings.HasSuffix(spec.PkgPath, "_test") {
		return spec.PkgPath
	}
	return strings.TrimSuffix(strings.TrimSuffix(variant, "]"), ".test")
}

func analyse(r *runner.Runner, cfg *packages.Config, checks []*analysis.Analyzer, patterns []string) (*run1, error) {
	results, err := r.Run(cfg, checks, patterns)
	if err != nil {
		return nil, err
	}
	out := &run1{byPackage: make(map[string][]runner.Diagnostic), dirs: make(map[string]string)}
	seen := map[string]bool{}
	for _, pkg := range results {
		if pkg.Failed {
			for _, e := range pkg.Errors {
				for _, msg := range packageError(pkg.Package.ID, e) {
					if !seen[msg] {
						seen[msg] = true
						out.errors = append(out.errors, msg)
					}
				}
			}
			continue
		}
		if !pkg.Initial {
			continue
		}
		data, err := pkg.Load()
		if err != nil {
			return nil, err
		}
		path := pkg.Package.PkgPath
		out.dirs[path] = dirOf(pkg.Package)
		if _, ok := out.byPackage[path]; !ok {
			out.byPackage[path] = nil // analysed, if without findings
		}
		for _, d := range data.Diagnostics {
			switch d.Category {
			case guard.Category:
				// A panic of lockvet's own, caught on this package: an
				// error, not a finding.
				if msg := "lockvet: " + d.Message; !seen[msg] {
					seen[msg] = true
					out.errors = append(out.errors, msg)
				}
			case record.Category:
				var rec link.Record
				if json.Unmarshal([]byte(d.Message), &rec) == nil {
					out.records = append(out.records, rec)
				}
			default:
				out.byPackage[path] = append(out.byPackage[path], d)
			}
		}
	}
	return out, nil
}

// result merges the first run's findings with a second run's, whose packages'
// findings replace the first run's; a package and its test variants share
// files, so each finding is reported once.
func (first *run1) result(second *run1) *result {
	res := &result{errors: first.errors}
	seen := map[string]bool{}
	add := func(ds []runner.Diagnostic) {
		for _, d := range ds {
			key := fmt.Sprintf("%v %v %s %s", d.Position, d.End, d.Category, d.Message)
			if !seen[key] {
				seen[key] = true
				res.findings = append(res.findings, d)
			}
		}
	}
	for path, ds := range first.byPackage {
		if second != nil {
			if _, ok := second.byPackage[path]; ok {
				continue
			}
		}
		add(ds)
	}
	if second != nil {
		for _, ds := range second.byPackage {
			add(ds)
		}
		for _, e := range second.errors {
			if !slices.Contains(res.errors, e) {
				res.errors = append(res.errors, e)
			}
		}
	}
	slices.SortFunc(res.findings, func(a, b runner.Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Position.Filename, b.Position.Filename),
			cmp.Compare(a.Position.Line, b.Position.Line),
			cmp.Compare(a.Position.Column, b.Position.Column),
			cmp.Compare(a.Category, b.Category),
			cmp.Compare(a.Message, b.Message))
	})
	return res
}

// openCache opens lockvet's own results cache, beside the Go build cache in the
// user's cache directory ($XDG_CACHE_HOME/lockvet or ~/.cache/lockvet on Linux).
func openCache() (cache.Cache, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil, fmt.Errorf("no cache directory for results: %v", err)
	}
	dir = filepath.Join(dir, "lockvet")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	return cache.Open(dir)
}

// cacheSalt keys cached results to this binary and to the analyzers' settings,
// which change what they report.
func cacheSalt() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	if id, err := buildid.ReadFile(exe); err == nil {
		io.WriteString(h, id)
	} else {
		f, err := os.Open(exe)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if _, err := io.Copy(h, f); err != nil {
			return nil, err
		}
	}
	for _, a := range append(analyzers.All, analyzers.Settings) {
		a.Flags.VisitAll(func(f *flag.Flag) {
			fmt.Fprintf(h, "\n-%s.%s=%s", a.Name, f.Name, f.Value)
		})
	}
	return h.Sum(nil), nil
}

// packageError renders a load or type error as file:line:col: message lines.
// Any other error came from lockvet's own analysis of the package (an
// analyzer, its facts, the loader) and says so, because the user's code is not
// at fault.
func packageError(pkg string, err error) []string {
	e, ok := err.(packages.Error)
	if !ok {
		return []string{"lockvet: internal error analysing " + pkg + ": " + oneLine(err)}
	}
	msg := strings.TrimSpace(e.Msg)
	if e.Pos != "" {
		return []string{relative(e.Pos) + ": " + msg}
	}
	if !strings.HasPrefix(msg, "# ") {
		return []string{"lockvet: " + msg}
	}
	// The compiler's output for the package and each of its test variants,
	// each under a "# package" header: keep the errors, which the caller
	// prints once however many variants repeat them.
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimRight(l, " \t"); l != "" && !strings.HasPrefix(l, "# ") {
			lines = append(lines, l)
		}
	}
	return lines
}

// oneLine keeps the first line of an error from the go command, which may
// append its whole stderr.
func oneLine(err error) string {
	s := err.Error()
	if _, rest, ok := strings.Cut(s, "stderr: "); ok {
		s = rest
	}
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// relative shortens a path below the working directory, as go vet prints it.
func relative(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
