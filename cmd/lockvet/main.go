// Command lockvet finds unsafe Redis distributed-lock patterns in Go code.
//
//	lockvet ./...                           analyse packages, print findings
//	lockvet -fix ./...                      apply suggested fixes (-diff to preview)
//	lockvet -json ./...                     findings as JSON
//	lockvet help [check]                    describe the checks
//	go vet -vettool=$(which lockvet) ./...  run as go vet's analysis tool
//	go fix -fixtool=$(which lockvet) ./...  run as go fix's tool
//
// Exit status: 0 no findings, 3 findings, 1 a package failed to load or analyse.
package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/lockvet/lockvet/analyzers/needlesslock"
	"github.com/lockvet/lockvet/analyzers/setnxlock"
	"github.com/lockvet/lockvet/analyzers/unfencedwrite"
	"github.com/lockvet/lockvet/analyzers/unsafedel"
)

func main() {
	multichecker.Main(setnxlock.Analyzer, unsafedel.Analyzer, unfencedwrite.Analyzer, needlesslock.Analyzer)
}
