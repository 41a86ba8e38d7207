// Package ssautil holds the small readers of SSA form that the lock and SQL
// models share: what constant or composite literal a value was built from,
// which function a call reaches, what a package-level variable starts as.
//
// Every reader gives up (returns false or nil) rather than guess: its callers
// prefer missing a lock or a statement to reporting one that is not there.
package ssautil
