package unfencedwrite

import (
	"strings"

	"github.com/lockvet/lockvet/internal/sqltext"
)

// verdict is what the database does with a write from a holder whose lease ran out.
type verdict int

const (
	notJudged   verdict = iota // not a write lockvet judges (a read, a DELETE, unreadable SQL)
	unfenced                   // it accepts it
	tokenFenced                // it refuses it: the fencing token is old
	conditional                // it refuses it: the row's state moved on
	serialized                 // another statement lets one caller through: a row lock, a won claim
	idempotent                 // a repeat changes nothing (INSERT … ON CONFLICT DO NOTHING)
)

// judge decides how a write fares when its holder's lease has run out. An
// upsert's DO UPDATE is judged as an UPDATE: it overwrites unless its WHERE
// says otherwise. A WHERE lockvet cannot read at all is not judged unfenced.
func judge(st sqltext.Stmt, text string, fence map[string]bool, serial bool) verdict {
	switch {
	case serial && st.Kind.Writes():
		return serialized
	case st.Kind == sqltext.Insert && st.OnConflict == "nothing":
		return idempotent
	case st.Kind == sqltext.Insert && st.OnConflict == "update", st.Kind == sqltext.Update, st.Kind == sqltext.Merge:
		return judgeUpdate(st, text, fence)
	case st.Kind == sqltext.Insert, st.Kind == sqltext.Replace:
		return unfenced
	}
	return notJudged
}

func judgeUpdate(st sqltext.Stmt, text string, fence map[string]bool) verdict {
	set := make(map[string]bool)
	for _, a := range st.Set {
		set[a.Column] = true
	}
	for _, c := range st.Where {
		if fence[c.Column] && set[c.Column] && (c.Op == "<" || c.Op == "<=") {
			return tokenFenced
		}
	}
	if st.Conditional() {
		return conditional
	}
	if st.WhereOpaque && (len(st.Where) == 0 || mentionsAny(whereText(text), set)) {
		// Part of the WHERE lockvet could not read (an OR, a hole in a
		// template) may test the row's state: silence over a guess.
		return notJudged
	}
	return unfenced
}

// whereText is the statement from its last WHERE on, lower-cased.
func whereText(text string) string {
	lower := strings.ToLower(text)
	if i := strings.LastIndex(lower, "where"); i >= 0 {
		return lower[i:]
	}
	return ""
}

// mentionsAny reports whether text names any of the columns as a word.
func mentionsAny(text string, cols map[string]bool) bool {
	for col := range cols {
		for i := strings.Index(text, col); i >= 0; {
			end := i + len(col)
			if (i == 0 || !isWord(text[i-1])) && (end == len(text) || !isWord(text[end])) {
				return true
			}
			next := strings.Index(text[end:], col)
			if next < 0 {
				break
			}
			i = end + next
		}
	}
	return false
}

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}
