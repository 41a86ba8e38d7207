package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"golang.org/x/tools/go/analysis"
)

// run is the command without its process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, stdout)
	var usage usageError
	switch {
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "lockvet: %v\n", err)
		return exitUsage
	case o == nil:
		return exitClean
	case o.explain != "":
		return explain(o.explain, stdout, stderr)
	}
	return execute(o, stdout, stderr)
}

// execute analyses what the options name and prints the result.
func execute(o *options, stdout, stderr io.Writer) int {
	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			fmt.Fprintf(stderr, "lockvet: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if o.fix {
		return fix(o)
	}
	res, err := lint(o)
	if err != nil {
		fmt.Fprintf(stderr, "lockvet: %v\n", oneLine(err))
		return exitFailed
	}
	if err := write(o.format, stdout, res); err != nil {
		fmt.Fprintf(stderr, "lockvet: %v\n", err)
		return exitFailed
	}
	for _, e := range res.errors {
		fmt.Fprintf(stderr, "%s\n", e)
	}
	switch {
	case len(res.errors) > 0:
		return exitFailed
	case len(res.findings) > 0:
		return exitFindings
	}
	return exitClean
}

func explain(name string, stdout, stderr io.Writer) int {
	a := lookup(name)
	if a == nil {
		fmt.Fprintf(stderr, "lockvet: unknown check %q: want one of %v\n", name, checkNames())
		return exitUsage
	}
	fmt.Fprintf(stdout, "%s\n\nOnline documentation:\n    %s\n", a.Doc, helpURI(a))
	return exitClean
}

// helpURI is where a check's documentation lives: its package, whose doc.go
// is the text -explain prints.
func helpURI(a *analysis.Analyzer) string { return a.URL }
