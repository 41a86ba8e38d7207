package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/analyzers"
)

// options are the command's settings after flag parsing.
type options struct {
	format     string
	checks     []*analysis.Analyzer
	explain    string
	fix, diff  bool
	tags       string
	tests      bool
	cpuprofile string
	patterns   []string
}

// usageError is a mistake in the command line: one line, exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

func newFlagSet(o *options, checks *string) *flag.FlagSet {
	fs := flag.NewFlagSet("lockvet", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.format, "f", "text", "output `format`: text, json (one object per line) or sarif")
	fs.StringVar(checks, "checks", "all", "comma-separated `checks` to run; all, a name, or -name to leave one out")
	fs.StringVar(&o.explain, "explain", "", "print the documentation of `check` and exit")
	fs.BoolVar(&o.fix, "fix", false, "apply the suggested fixes")
	fs.BoolVar(&o.diff, "diff", false, "with -fix, print the fixes as a unified diff instead of applying them")
	fs.StringVar(&o.tags, "tags", "", "comma-separated build `tags`")
	fs.BoolVar(&o.tests, "tests", true, "analyse test files too")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile to `file`")
	// Each analyzer's own flags, prefixed with its name as go vet spells them:
	// -unfencedwrite.fence, -lockmodel.acquire.
	for _, a := range append(analyzers.All, analyzers.Settings) {
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	return fs
}

// parseArgs reads the command line. A nil error with nil options means usage
// was printed on request.
func parseArgs(args []string, stdout io.Writer) (*options, error) {
	if len(args) > 0 && args[0] == "help" {
		if len(args) == 1 {
			printUsage(stdout, nil)
			return nil, nil
		}
		args = []string{"-explain", args[1]}
	}
	o := &options{}
	var checks string
	fs := newFlagSet(o, &checks)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout, fs)
			return nil, nil
		}
		return nil, usagef("%v (see lockvet -h)", err)
	}
	switch o.format {
	case "text", "json", "sarif":
	default:
		return nil, usagef("unknown output format %q: want text, json or sarif", o.format)
	}
	selected, err := selectChecks(checks)
	if err != nil {
		return nil, err
	}
	o.checks = selected
	o.patterns = fs.Args()
	if o.diff && !o.fix {
		o.fix = true
	}
	if o.explain == "" && len(o.patterns) == 0 {
		return nil, usagef("no packages to analyse (try: lockvet ./...)")
	}
	return o, nil
}

// selectChecks reads -checks: "all", names, and -name exclusions, left to right.
func selectChecks(list string) ([]*analysis.Analyzer, error) {
	on := map[string]bool{}
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		name, off := strings.CutPrefix(item, "-")
		switch {
		case item == "":
		case name == "all":
			for _, a := range analyzers.All {
				on[a.Name] = !off
			}
		case lookup(name) != nil:
			on[name] = !off
		default:
			return nil, usagef("unknown check %q in -checks: want all or one of %s", name, strings.Join(checkNames(), ", "))
		}
	}
	var out []*analysis.Analyzer
	for _, a := range analyzers.All {
		if on[a.Name] {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, usagef("-checks %q selects no check", list)
	}
	return out, nil
}

func lookup(name string) *analysis.Analyzer {
	i := slices.IndexFunc(analyzers.All, func(a *analysis.Analyzer) bool { return a.Name == name })
	if i < 0 {
		return nil
	}
	return analyzers.All[i]
}

func checkNames() []string {
	var names []string
	for _, a := range analyzers.All {
		names = append(names, a.Name)
	}
	return names
}

func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `lockvet finds unsafe Redis distributed-lock patterns.

Usage: lockvet [flags] packages
       lockvet help [check]
       go vet -vettool=$(which lockvet) [flags] packages

Checks:
`)
	for _, a := range analyzers.All {
		title, _, _ := strings.Cut(a.Doc, "\n")
		fmt.Fprintf(w, "  %-14s %s\n", a.Name, strings.TrimPrefix(title, a.Name+": "))
	}
	if fs == nil {
		var o options
		var checks string
		fs = newFlagSet(&o, &checks)
	}
	fmt.Fprint(w, "\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprint(w, "\nExit status: 0 no findings, 3 findings, 1 a package failed to load, 2 bad usage.\n")
}
