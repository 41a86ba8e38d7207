package link

import (
	"encoding/json"
	"testing"
)

func TestJoinPrefersTheTypesWiredIntoTheInterface(t *testing.T) {
	sig := map[string]string{"Release": "func(context.Context) (bool, error)"}
	lease := func(name, from string) Type {
		return Type{Name: name, Methods: sig, Facts: map[string]Facts{"Release": {From: from, Wrapper: json.RawMessage(`{"From":"` + from + `"}`)}}}
	}
	types := []Type{lease("app/infra.profileLease", "infra.profileLease.Release"), lease("app/redislock.Lock", "redislock.Lock.Release")}
	calls := []Iface{{Name: "app/ports.Lease", Methods: sig}}
	if table, _, _ := Join([]Record{{Package: "app/svc", Calls: calls}, {Package: "app/infra", Types: types}}); table["app/ports.Lease.Release"].From != "" {
		t.Errorf("two leases by shape alone: resolved, want ambiguous")
	}
	table, _, _ := Join([]Record{{Package: "app/svc", Calls: calls}, {Package: "app/infra", Types: types,
		Into: map[string][]string{"app/infra.profileLease": {"app/ports.Lease"}, "app/redislock.Lock": {"app/other.Lease"}}}})
	if f := table["app/ports.Lease.Release"]; f.From != "infra.profileLease.Release" {
		t.Errorf("the lease converted to ports.Lease: got %+v", f)
	}
}

func TestJoinPicksEachKindOfFact(t *testing.T) {
	sig := map[string]string{"Lock": "func(context.Context) error", "Unlock": "func(context.Context) error"}
	iface := Iface{Name: "app/lock.Mutex", Methods: sig}
	impl := func(name string, lock Facts) Type {
		return Type{Name: name, Methods: sig, Facts: map[string]Facts{"Lock": lock}}
	}
	wrapper := json.RawMessage(`{"Kind":0}`)
	summary := func(s string) json.RawMessage { return json.RawMessage(`"` + s + `"`) }
	redis := Facts{From: "lock.RedisMutex.Lock", Wrapper: wrapper}
	memory := Facts{From: "lock.memoryMutex.Lock"}
	for _, c := range []struct {
		name    string
		types   []Type
		want    bool
		wrapper bool
		summary string
	}{
		{"one implementation", []Type{impl("app/lock.RedisMutex", redis)}, true, true, ""},
		{"an in-memory one beside it, without facts", []Type{impl("app/lock.RedisMutex", redis), impl("app/lock.memoryMutex", memory)}, true, true, ""},
		{"an in-memory one with a summary of its own: the wrapper stays, the summaries clash",
			[]Type{impl("app/lock.RedisMutex", Facts{From: redis.From, Wrapper: wrapper, Summary: summary("redis")}),
				impl("app/lock.memoryMutex", Facts{From: memory.From, Summary: summary("pure")})}, true, true, ""},
		{"two wrappers that disagree", []Type{impl("app/lock.RedisMutex", redis),
			impl("app/lock.EtcdMutex", Facts{From: "lock.EtcdMutex.Lock", Wrapper: json.RawMessage(`{"Kind":1}`)})}, false, false, ""},
		{"a summary alone", []Type{impl("app/lock.memoryMutex", Facts{From: memory.From, Summary: summary("pure")})}, true, false, `"pure"`},
	} {
		table, _, callers := Join([]Record{{Package: "app/job", Calls: []Iface{iface}}, {Package: "app/lock", Types: c.types}})
		f, ok := table["app/lock.Mutex.Lock"]
		if ok != c.want || (f.Wrapper != nil) != c.wrapper || string(f.Summary) != c.summary {
			t.Errorf("%s: got %+v, %v", c.name, f, ok)
		}
		if ok && (len(callers) != 1 || callers[0] != "app/job") {
			t.Errorf("%s: callers %v", c.name, callers)
		}
		if c.wrapper && f.From != "lock.RedisMutex.Lock" {
			t.Errorf("%s: from %q, want the wrapper's implementation", c.name, f.From)
		}
	}
}
