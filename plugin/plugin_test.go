package plugin

import (
	"flag"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/lockvet/lockvet/analyzers"
	"github.com/lockvet/lockvet/analyzers/unfencedwrite"
)

// list is a YAML list as golangci-lint hands it to New.
func list(vs ...string) []any {
	l := make([]any, len(vs))
	for i, v := range vs {
		l[i] = v
	}
	return l
}

func names(t *testing.T, conf any) string {
	t.Helper()
	p, err := New(conf)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if mode := p.GetLoadMode(); mode != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q", mode, register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatalf("BuildAnalyzers: %v", err)
	}
	var ns []string
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	return strings.Join(ns, ",")
}

func TestChecks(t *testing.T) {
	all := "setnxlock,unsafedel,unfencedwrite,needlesslock"
	for _, tc := range []struct {
		name string
		conf any
		want string
	}{
		{"no settings", nil, all},
		{"empty settings", map[string]any{}, all},
		{"empty list", map[string]any{"checks": list()}, all},
		{"subset in command order", map[string]any{"checks": list("unfencedwrite", "setnxlock")}, "setnxlock,unfencedwrite"},
		{"duplicates", map[string]any{"checks": list("unsafedel", "unsafedel")}, "unsafedel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := names(t, tc.conf); got != tc.want {
				t.Errorf("checks %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRegistered(t *testing.T) {
	if _, err := register.GetPlugin("lockvet"); err != nil {
		t.Fatal(err)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		conf any
		want string
	}{
		{"unknown check", map[string]any{"checks": list("setnxlock", "unsafedelete")}, `unknown check "unsafedelete"`},
		{"unknown key", map[string]any{"fences": list("epoch")}, `unknown field "fences"`},
		{"not a list", map[string]any{"fence": "epoch"}, "cannot unmarshal"},
		{"bad column", map[string]any{"fence": list("epoch", "fencing token")}, "fence: "},
		{"bad helper name", map[string]any{"acquire": list("Acquire")}, "acquire: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keep(t, &unfencedwrite.Analyzer.Flags, "fence")
			keep(t, &analyzers.Settings.Flags, "acquire")
			_, err := New(tc.conf)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("New error %v, want one line with %q", err, tc.want)
			}
		})
	}
}

func TestFence(t *testing.T) {
	keep(t, &unfencedwrite.Analyzer.Flags, "fence")
	if _, err := New(map[string]any{"fence": list("fencing_token", "version")}); err != nil {
		t.Fatal(err)
	}
	if got := unfencedwrite.Analyzer.Flags.Lookup("fence").Value.String(); got != "fencing_token,version" {
		t.Errorf("-fence=%q, want %q", got, "fencing_token,version")
	}
}

// TestLockHelpers checks that each list reaches its lockmodel flag as one
// comma-separated value, whatever form the flag keeps it in.
func TestLockHelpers(t *testing.T) {
	helpers := []string{"example.com/lock.Acquire", "example.com/lock.(*Lease).Release"}
	for _, key := range []string{"acquire", "release"} {
		t.Run(key, func(t *testing.T) {
			keep(t, &analyzers.Settings.Flags, key)
			if err := analyzers.Settings.Flags.Set(key, strings.Join(helpers, ",")); err != nil {
				t.Fatal(err)
			}
			f := analyzers.Settings.Flags.Lookup(key)
			want := f.Value.String()
			if err := f.Value.Set(""); err != nil {
				t.Fatal(err)
			}
			if _, err := New(map[string]any{key: list(helpers...)}); err != nil {
				t.Fatal(err)
			}
			if got := f.Value.String(); got != want {
				t.Errorf("-%s=%q, want %q", key, got, want)
			}
		})
	}
}

// keep restores a flag after the test: the analyzers' flags are globals.
func keep(t *testing.T, fs *flag.FlagSet, name string) {
	old := fs.Lookup(name).Value.String()
	t.Cleanup(func() { fs.Set(name, old) })
}
