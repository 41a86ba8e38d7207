package unfencedwrite

import "github.com/lockvet/lockvet/internal/sqltext"

// verdict is what the database does with a write from a holder whose lease ran out.
type verdict int

const (
	notJudged   verdict = iota // not a write lockvet judges (a read, a DELETE, unreadable SQL)
	unfenced                   // it accepts it
	tokenFenced                // it refuses it: the fencing token is old
	conditional                // it refuses it: the row's state moved on
	rowLocked                  // the row was locked in the same transaction first
	idempotent                 // a repeat changes nothing (INSERT … ON CONFLICT DO NOTHING)
)

// judge decides how a write fares when its holder's lease has run out. An
// upsert's DO UPDATE is judged as an UPDATE: it overwrites unless its WHERE
// says otherwise. A WHERE lockvet cannot read at all is not judged unfenced.
func judge(st sqltext.Stmt, fence map[string]bool, locked bool) verdict {
	switch {
	case locked && st.Kind.Writes():
		return rowLocked
	case st.Kind == sqltext.Insert && st.OnConflict == "nothing":
		return idempotent
	case st.Kind == sqltext.Insert && st.OnConflict == "update", st.Kind == sqltext.Update, st.Kind == sqltext.Merge:
		return judgeUpdate(st, fence)
	case st.Kind == sqltext.Insert, st.Kind == sqltext.Replace:
		return unfenced
	}
	return notJudged
}

func judgeUpdate(st sqltext.Stmt, fence map[string]bool) verdict {
	set := make(map[string]bool)
	for _, a := range st.Set {
		set[a.Column] = true
	}
	for _, c := range st.Where {
		if fence[c.Column] && set[c.Column] && (c.Op == "<" || c.Op == "<=") {
			return tokenFenced
		}
	}
	for _, c := range st.Where {
		if set[c.Column] {
			return conditional
		}
	}
	if st.WhereOpaque && len(st.Where) == 0 {
		// lockvet read none of the WHERE (a top-level OR, a hole in a
		// template): it may test the row's state. Silence over a guess.
		return notJudged
	}
	return unfenced
}
