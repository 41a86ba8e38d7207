// Package analyzers lists lockvet's checks, one package each under this
// directory, for the hosts that run them all: the lockvet command, the
// golangci-lint plugin and the gopls build.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/analyzers/needlesslock"
	"github.com/lockvet/lockvet/analyzers/setnxlock"
	"github.com/lockvet/lockvet/analyzers/unfencedwrite"
	"github.com/lockvet/lockvet/analyzers/unsafedel"
	"github.com/lockvet/lockvet/internal/lockmodel"
)

// All are the checks, in the order their issues were found: the lock, its
// release, the writes it guards, and whether it should exist at all.
var All = []*analysis.Analyzer{
	setnxlock.Analyzer,
	unsafedel.Analyzer,
	unfencedwrite.Analyzer,
	needlesslock.Analyzer,
}

// Settings is the analyzer that carries the settings every check shares: the
// in-house lock helpers named with -lockmodel.acquire and -lockmodel.release.
// It reports nothing; hosts expose its flags beside the checks'.
var Settings = lockmodel.Analyzer
