package sqltext

import (
	"sort"
	"strconv"
	"strings"
	"testing"
)

// parseChecked runs ParseAll on src and checks the result's invariants.
// Nothing here is timed: superlinear behaviour on these inputs would take
// hours, which the test binary's timeout catches; the benchmarks below say
// how fast the parser is.
func parseChecked(t *testing.T, src string) {
	t.Helper()
	for _, st := range ParseAll(src) {
		checkInvariants(t, st)
	}
}

// TestHugeStatement is a 4 MB statement with 100k-deep parentheses in
// both SET and WHERE and a long IN list.
func TestHugeStatement(t *testing.T) {
	const deep = 100_000
	open, closed := strings.Repeat("(", deep), strings.Repeat(")", deep)
	head := "UPDATE t SET a = " + open + "$1::bigint" + closed + " WHERE " + open + "id = $2" + closed + " AND k IN ("
	src := head + strings.Repeat("?, ", (4<<20-len(head))/3) + "?)"
	parseChecked(t, src)
	st := Parse(src)
	if st.Kind != Update || len(st.Set) != 1 || st.Set[0].Value.Kind != OpPlaceholder || st.Set[0].Value.Placeholder != 1 ||
		len(st.Where) != 2 || st.Where[0] != eq("id", ph("$2", 2)) || st.Where[1].Op != "IN" || st.WhereOpaque {
		t.Errorf("misread: kind %v, set %+v, %d conditions, opaque %v", st.Kind, st.Set, len(st.Where), st.WhereOpaque)
	}
}

// adversarial are multi-megabyte inputs shaped to defeat quadratic scans
// and recursion.
func adversarial() map[string]string {
	const size = 4 << 20
	const deep = 100_000
	rep := strings.Repeat
	fill := func(s string) int { return size / len(s) }
	var dollars strings.Builder
	for i := 1; dollars.Len() < size; i++ {
		dollars.WriteString("$" + strconv.Itoa(i) + ",")
	}
	return map[string]string{
		"numbered":     "DELETE FROM t WHERE id IN (" + dollars.String() + "0)",
		"and list":     "UPDATE t SET a = 1 WHERE " + rep("x = 1 AND ", fill("x = 1 AND ")) + "y = 2",
		"set list":     "UPDATE t SET " + rep("b = b + 1, ", fill("b = b + 1, ")) + "c = 1",
		"nested ands":  "DELETE FROM t WHERE " + rep("(a = 1 AND ", deep) + "b = 2" + rep(")", deep),
		"nested ors":   "DELETE FROM t WHERE " + rep("(a = 1 OR ", deep) + "b = 2" + rep(")", deep),
		"nested case":  "UPDATE t SET a = " + rep("CASE WHEN x THEN ", deep) + "1" + rep(" END", deep) + " WHERE id = 1",
		"casts":        "SELECT * FROM t WHERE a = " + rep("(", deep) + "$1" + rep("::int", deep) + rep(")", deep),
		"unclosed":     rep("(", size),
		"closers":      rep(")", size),
		"brackets":     "SELECT " + rep("[", size),
		"bracket ids":  "SELECT " + rep("[a] ", fill("[a] ")),
		"backslashes":  rep(`'\' `, fill(`'\' `)),
		"quotes":       "UPDATE t SET a = " + rep("'a''", fill("'a''")),
		"dollars":      rep("$a$ ", fill("$a$ ")),
		"comment":      "SELECT 1 -- " + rep("x", size),
		"open comment": "SELECT 1 /* " + rep("x", size),
		"tuple":        "UPDATE t SET (" + rep("a, ", fill("a, ")) + "a) = (SELECT 1) WHERE id = 1",
		"merge whens":  "MERGE INTO t USING s ON t.id = s.id " + rep("WHEN MATCHED AND t.v < s.v THEN UPDATE SET v = s.v ", fill("WHEN MATCHED AND t.v < s.v THEN UPDATE SET v = s.v ")),
		"insert ons":   "INSERT INTO t SELECT * FROM a " + rep("JOIN b ON x = y ", fill("JOIN b ON x = y ")) + "ON CONFLICT DO NOTHING",
		"statements":   rep("SELECT 1;", fill("SELECT 1;")),
		"words":        rep("for ", fill("for ")),
	}
}

func TestAdversarialInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: about 100 MB of input")
	}
	for name, src := range adversarial() {
		t.Run(name, func(t *testing.T) { parseChecked(t, src) })
	}
}

func BenchmarkAdversarialInputs(b *testing.B) {
	inputs := adversarial()
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(inputs[name])))
			for b.Loop() {
				ParseAll(inputs[name])
			}
		})
	}
}
