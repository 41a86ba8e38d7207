package main

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis/multichecker"
)

// fix applies the suggested fixes, or prints them as a diff, with the x/tools
// checker: it resolves conflicting and duplicate edits across packages and
// formats what it touches, which the cached runner has no use for.
func fix(o *options) int {
	args := []string{os.Args[0], "-fix", "-test=" + strconv.FormatBool(o.tests)}
	if o.diff {
		args = append(args, "-diff")
	}
	if o.tags != "" {
		os.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -tags="+o.tags))
	}
	os.Args = append(args, o.patterns...)
	multichecker.Main(o.checks...)
	return exitClean // not reached: Main exits
}
