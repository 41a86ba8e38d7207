package plugin

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/analyzers"
	"github.com/lockvet/lockvet/analyzers/unfencedwrite"
)

// Settings are the keys of the linter's `settings:` in .golangci.yml.
type Settings struct {
	// Checks is the subset of checks to run; all run when it is empty.
	Checks []string `json:"checks"`
	// Fence names the fencing-token columns (-unfencedwrite.fence).
	Fence []string `json:"fence"`
	// Acquire and Release name in-house lock helper functions, such as
	// example.com/lock.Acquire or example.com/lock.(*Lease).Release
	// (-lockmodel.acquire, -lockmodel.release).
	Acquire []string `json:"acquire"`
	Release []string `json:"release"`
}

func selectChecks(names []string) ([]*analysis.Analyzer, error) {
	if len(names) == 0 {
		return analyzers.All, nil
	}
	for _, n := range names {
		if !slices.ContainsFunc(analyzers.All, func(a *analysis.Analyzer) bool { return a.Name == n }) {
			return nil, fmt.Errorf("unknown check %q", n)
		}
	}
	var selected []*analysis.Analyzer
	for _, a := range analyzers.All {
		if slices.Contains(names, a.Name) {
			selected = append(selected, a)
		}
	}
	return selected, nil
}

// setFlags passes the settings to the analyzers' flags, which check the
// names. A setting left out keeps the flag's default.
func (s Settings) setFlags() error {
	for _, f := range []struct {
		flags *flag.FlagSet
		name  string
		list  []string
	}{
		{&unfencedwrite.Analyzer.Flags, "fence", s.Fence},
		{&analyzers.Settings.Flags, "acquire", s.Acquire},
		{&analyzers.Settings.Flags, "release", s.Release},
	} {
		if len(f.list) == 0 {
			continue
		}
		if err := f.flags.Set(f.name, strings.Join(f.list, ",")); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	return nil
}
