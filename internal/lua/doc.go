// Package lua tells, from the text of a Redis Lua script alone, what the
// script does to its keys as far as distributed locks are concerned.
//
// Go code often hides the interesting half of a lock inside a script passed
// to EVAL: a release is safe only if the script compares the stored owner
// token before deleting, a refresh only if it compares before extending the
// TTL, an acquire only if it sets the key when absent and gives it a TTL. The
// analyzer cannot run the script, so it reads it instead.
//
// Lua has no regular surface a regexp could rely on (comments, long brackets,
// both quote styles, locals standing for GET results or ARGV values), so the
// package tokenizes the script and follows its if/else nesting, early returns
// and simple local bindings. Reading is tolerant: text it cannot make sense of
// yields nothing, and a guard it does not recognise leaves the guarded
// command counted as unguarded, so doubt surfaces as a report rather than as
// silence.
package lua
