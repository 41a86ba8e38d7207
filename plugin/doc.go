// Package plugin registers lockvet as a golangci-lint module plugin named
// "lockvet": built into a custom golangci-lint with `golangci-lint custom`, it
// runs the four checks as one linter, configured from .golangci.yml.
//
// Settings (all optional):
//
//	checks:  [setnxlock, unsafedel, unfencedwrite, needlesslock]  # a subset to run; all when absent
//	fence:   [fencing_token, version]       # fencing-token columns (unfencedwrite -fence)
//	acquire: [example.com/lock.Acquire]     # in-house lock helpers that acquire
//	release: [example.com/lock.(*Lease).Release]  # … and that release
//
// The settings set the analyzers' flags, which are process-wide: they hold for
// every package of the run. README.md in this directory shows the configuration
// files.
package plugin
