package sqltext

import (
	"reflect"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, c := range parseCases {
		f.Add(c.src)
	}
	for _, s := range []string{
		"SELECT 1; UPDATE t SET a = 1 WHERE id = $1; ;", "'\\", "$a$ $a", "[x]]", "E'\\", "?1?2", ":1:a::b",
		"@p@@x@>", "((((", "))))", "CASE CASE END", "a BETWEEN AND AND", "WITH (", "MERGE WHEN THEN WHEN",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		st := Parse(src)
		if again := Parse(src); !reflect.DeepEqual(st, again) {
			t.Fatalf("not deterministic: %+v then %+v", st, again)
		}
		all := ParseAll(src)
		if len(all) == 0 && !reflect.DeepEqual(st, Stmt{}) || len(all) > 0 && !reflect.DeepEqual(st, all[0]) {
			t.Fatalf("Parse %+v disagrees with ParseAll %+v", st, all)
		}
		for _, s := range all {
			checkInvariants(t, s)
		}
	})
}

func checkInvariants(t *testing.T, st Stmt) {
	t.Helper()
	if st.Kind < Unknown || st.Kind > Other {
		t.Fatalf("kind out of range: %+v", st)
	}
	if st.Placeholders < 0 {
		t.Fatalf("negative placeholder count: %+v", st)
	}
	if !st.HasWhere && (len(st.Where) > 0 || st.WhereOpaque) {
		t.Fatalf("WHERE details without HasWhere: %+v", st)
	}
	switch st.OnConflict {
	case "", "nothing", "update":
	default:
		t.Fatalf("bad OnConflict: %+v", st)
	}
	switch st.Locking {
	case "FOR UPDATE", "FOR NO KEY UPDATE", "FOR SHARE", "FOR KEY SHARE", "LOCK IN SHARE MODE":
	case "":
		if st.SkipLocked || st.NoWait {
			t.Fatalf("lock options without locking clause: %+v", st)
		}
	default:
		t.Fatalf("bad Locking: %+v", st)
	}
	for _, c := range st.Where {
		if c.Op == "" {
			t.Fatalf("condition without operator: %+v", st)
		}
		checkOperand(t, c.Operand)
	}
	for _, a := range st.Set {
		checkOperand(t, a.Value)
	}
}

func checkOperand(t *testing.T, o Operand) {
	t.Helper()
	switch {
	case o.Kind < OpUnknown || o.Kind > OpExpr:
		t.Fatalf("operand kind out of range: %+v", o)
	case o.Placeholder < 0:
		t.Fatalf("negative placeholder: %+v", o)
	case o.Kind != OpPlaceholder && (o.Placeholder != 0 || o.Name != ""):
		t.Fatalf("placeholder details on a non-placeholder: %+v", o)
	case (o.Kind == OpUnknown) != (o.Text == ""):
		t.Fatalf("text and kind disagree: %+v", o)
	}
}
