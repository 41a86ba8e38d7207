// Package sqltext reads the shape of one SQL statement: its kind, target
// table, SET columns, WHERE conjuncts, upsert and row-locking clauses.
//
// The lock checks need exactly that much to decide whether a write made
// under a distributed lock is fenced: an UPDATE whose WHERE compares a
// token column against a bound parameter is conditional, one keyed only by
// id is not; a SELECT ... FOR UPDATE takes a database row lock; an upsert
// with DO NOTHING cannot overwrite a newer row.
//
// SQL in Go code is assembled from fragments, format holes and string
// concatenation, in several dialects (PostgreSQL, MySQL, SQLite, some SQL
// Server), so this is a tolerant reader rather than a grammar: it tokenises
// with the dialects' quoting rules, finds clauses by scanning for keywords
// at one parenthesis level, and reports what it cannot describe as opaque
// instead of failing. It never panics and works in time linear in the input
// with explicit depth bookkeeping, so hostile or huge text is safe to feed it.
package sqltext
