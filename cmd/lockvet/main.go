// Command lockvet finds unsafe Redis distributed-lock patterns in Go code.
//
//	lockvet ./...                           analyse packages, print findings
//	lockvet -f json|sarif ./...             findings as JSON lines or SARIF 2.1.0
//	lockvet -checks all,-needlesslock ./... choose the checks
//	lockvet -fix ./...                      apply suggested fixes (-diff to preview)
//	lockvet -explain CHECK                  describe a check (also: lockvet help CHECK)
//	go vet -vettool=$(which lockvet) ./...  run as go vet's analysis tool
//	go fix -fixtool=$(which lockvet) ./...  run as go fix's tool
//
// Results are cached in the user cache directory ($XDG_CACHE_HOME/lockvet or
// ~/.cache/lockvet on Linux): a second run over unchanged packages reads them
// back instead of analysing again.
//
// Exit status: 0 no findings, 3 findings, 1 a package failed to load or type-check
// (the others are still analysed), 2 bad usage (flags, check names, settings).
package main

import (
	"os"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/lockvet/lockvet/analyzers"
)

const (
	exitClean    = 0
	exitFailed   = 1
	exitUsage    = 2
	exitFindings = 3
)

func main() {
	if vetProtocol(os.Args[1:]) {
		// go vet and go fix drive the tool one package at a time, passing facts
		// between runs themselves: that protocol is unitchecker's.
		unitchecker.Main(append(analyzers.All, analyzers.Settings)...)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// vetProtocol reports whether the go command is running lockvet as a vet or
// fix tool: it asks for the version and the flags, then passes a .cfg file.
func vetProtocol(args []string) bool {
	for _, a := range args {
		if a == "-flags" || a == "--flags" || strings.HasPrefix(a, "-V=") || strings.HasPrefix(a, "--V=") {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}
