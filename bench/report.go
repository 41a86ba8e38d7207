//go:build linux

package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// table is one package set in one state.
type table struct {
	set   *pkgSet
	state string
	rows  []*row
}

// row is one tool's runs in a table.
type row struct {
	tool string
	runs []run
}

func (r *row) ok() []run {
	var out []run
	for _, x := range r.runs {
		if x.failure == "" {
			out = append(out, x)
		}
	}
	return out
}

func (r *row) medianWall() time.Duration {
	return median(r.ok(), func(x run) int64 { return int64(x.wall) })
}
func (r *row) medianCPU() time.Duration {
	return median(r.ok(), func(x run) int64 { return int64(x.cpu) })
}
func (r *row) medianRSS() int64 { return int64(median(r.ok(), func(x run) int64 { return x.maxRSS })) }
func (r *row) medianTree() int64 {
	return int64(median(r.ok(), func(x run) int64 { return x.treeRSS }))
}

func median(runs []run, f func(run) int64) time.Duration {
	if len(runs) == 0 {
		return 0
	}
	v := make([]int64, len(runs))
	for i, x := range runs {
		v[i] = f(x)
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return time.Duration(v[len(v)/2])
	}
	return time.Duration((v[len(v)/2-1] + v[len(v)/2]) / 2)
}

func (t *table) row(tool string) *row {
	for _, r := range t.rows {
		if r.tool == tool && len(r.ok()) > 0 {
			return r
		}
	}
	return nil
}

type report struct {
	info     machine
	started  time.Time
	elapsed  time.Duration
	note     string
	n        int
	shared   bool // -sharedcache
	tables   []*table
	failures []string
}

var stateTitle = map[string]string{
	"analysis-cold": "analysis-cold (compile cache warm, analysis caches empty: a fresh copy of the prepared GOCACHE each run)",
	"vettool":       "go vet -vettool=lockvet against go vet (analysis-cold)",
	"warm":          "warm (a second run on the same caches, nothing changed)",
	"cold":          "fully cold (empty GOCACHE and STATICCHECK_CACHE each run)",
}

func (rep *report) markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# lockvet benchmark results\n\n")
	if rep.note != "" {
		w("%s\n\n", rep.note)
	}
	w("- date: %s (took %s)\n", rep.started.UTC().Format("2006-01-02 15:04 MST"), rep.elapsed.Round(time.Second))
	w("- machine: %d CPUs (%s), %s memory; load average %s at the start, %s at the end\n", rep.info.cpus, rep.info.cpuModel, rep.info.memory, rep.info.loadBefore, rep.info.loadAfter)
	w("- %s; GOFLAGS=%q\n", rep.info.goVersion, rep.info.goflags)
	w("- lockvet: %s; staticcheck: %s\n", rep.info.lockvet, orNA(rep.info.staticcheck))
	if rep.info.baseline != "" {
		w("- baseline: lockvet built at %s (-baseline)\n", rep.info.baseline)
	}
	w("- command: `%s`\n", command())
	w("- %d run(s) per tool and state, interleaved; wall and CPU are medians. CPU is user+system time of the tool and every process it waited for. peak RSS is ru_maxrss from wait4: the largest single process (tool, go list, or one vet/compile process under go vet), median over runs. tree RSS is the sampled peak of the summed RSS of the run's process group (go vet runs several vet processes at once).\n\n", rep.n)

	for _, t := range rep.tables {
		w("## %s — %s\n\n", t.set.title, t.state)
		title := stateTitle[t.state]
		if rep.shared && t.state != "cold" {
			title = t.state + " with -sharedcache: the caller's GOCACHE instead of a fresh copy of a prepared one, fresh STATICCHECK_CACHE and XDG_CACHE_HOME; whatever that GOCACHE already holds (go vet's cached results) is reused, so these are smoke-test numbers"
		}
		w("%s. Directory `%s`, patterns `%s`, %d packages", title, shortPath(t.set.dir), strings.Join(t.set.patterns, " "), t.set.packages)
		if g := t.set.genStats; g.Packages > 0 {
			w(" (%d × %d-layer services and 20 shared packages, %d lock, %d SQL, %d with tests, %d files, %d lines; a package imports %.0f of them, directly or not)",
				g.Services, g.Layers, g.Lock, g.SQL, g.Tests, g.Files, g.Lines, g.Imports)
		}
		w(".\n\n")
		base, baseName := t.row("lockvet"), "lockvet ÷ tool"
		if t.state == "vettool" {
			base, baseName = t.row("govet"), "÷ go vet"
		}
		perPkg := t.set.gen > 0
		w("| tool | median wall | %s | median CPU | %s (CPU) | peak RSS | tree RSS |", baseName, baseName)
		if perPkg {
			w(" ms/package |")
		}
		w(" runs (wall) | exit codes |\n|---|---:|---:|---:|---:|---:|---:|")
		if perPkg {
			w("---:|")
		}
		w("---|---|\n")
		for _, r := range t.rows {
			ratio, cpuRatio := "n/a", "n/a"
			if base != nil && len(r.ok()) > 0 {
				if t.state == "vettool" {
					ratio = fmt.Sprintf("%.2f", float64(r.medianWall())/float64(base.medianWall()))
					cpuRatio = fmt.Sprintf("%.2f", float64(r.medianCPU())/float64(base.medianCPU()))
				} else {
					ratio = fmt.Sprintf("%.2f", float64(base.medianWall())/float64(r.medianWall()))
					cpuRatio = fmt.Sprintf("%.2f", float64(base.medianCPU())/float64(r.medianCPU()))
				}
			}
			var walls, exits []string
			for _, x := range r.runs {
				walls = append(walls, secs(x.wall))
				e := fmt.Sprint(x.exit)
				if x.failure != "" {
					e += " FAILED"
				}
				exits = append(exits, e)
			}
			if len(r.ok()) == 0 {
				w("| %s | failed | n/a | | | | |", toolTitle[r.tool])
				if perPkg {
					w(" |")
				}
				w(" %s | %s |\n", strings.Join(walls, ", "), strings.Join(exits, ", "))
				continue
			}
			w("| %s | %s | %s | %s | %s | %s | %s |", toolTitle[r.tool], secs(r.medianWall()), ratio, secs(r.medianCPU()), cpuRatio, mib(r.medianRSS()), mib(r.medianTree()))
			if perPkg {
				w(" %.1f |", float64(r.medianWall().Microseconds())/1000/float64(max(t.set.packages, 1)))
			}
			w(" %s | %s |\n", strings.Join(walls, ", "), strings.Join(exits, ", "))
		}
		w("\n")
	}

	rep.scaling(w)
	rep.targets(w)
	if len(rep.failures) > 0 {
		w("## Failures\n\n")
		for _, f := range rep.failures {
			w("- %s\n", f)
		}
		w("\n")
	}
	return b.String()
}

// scaling tabulates time per package over the generated modules' sizes.
func (rep *report) scaling(w func(string, ...any)) {
	for _, state := range []string{"analysis-cold", "cold", "warm"} {
		var tabs []*table
		for _, t := range rep.tables {
			if t.set.gen > 0 && t.state == state {
				tabs = append(tabs, t)
			}
		}
		if len(tabs) < 2 {
			continue
		}
		w("## Scaling on the generated modules — %s\n\nMedian wall time per package in ms (CPU time per package in parentheses).\n\n| packages |", state)
		var tools []string
		for _, r := range tabs[0].rows {
			tools = append(tools, r.tool)
			w(" %s |", toolTitle[r.tool])
		}
		w("\n|---:|%s\n", strings.Repeat("---:|", len(tools)))
		for _, t := range tabs {
			w("| %d |", t.set.packages)
			for _, tool := range tools {
				if r := t.row(tool); r != nil {
					w(" %.1f (%.1f) |", perPackage(t, r), cpuPerPackage(t, r))
				} else {
					w(" n/a |")
				}
			}
			w("\n")
		}
		w("\n")
	}
}

func perPackage(t *table, r *row) float64 {
	return float64(r.medianWall().Microseconds()) / 1000 / float64(max(t.set.packages, 1))
}

func cpuPerPackage(t *table, r *row) float64 {
	return float64(r.medianCPU().Microseconds()) / 1000 / float64(max(t.set.packages, 1))
}

// targets checks the targets against what was measured.
func (rep *report) targets(w func(string, ...any)) {
	w("## Targets\n\n")
	if rep.shared {
		w("Not evaluated: with -sharedcache (as in -short) go vet may find its own results in the caller's GOCACHE, so the ratios are not comparable.\n\n")
		return
	}
	find := func(set, state string) *table {
		for _, t := range rep.tables {
			if t.set.key == set && t.state == state {
				return t
			}
		}
		return nil
	}
	line := func(name string, ok bool, measured bool, detail string) {
		verdict := "n/a (not measured)"
		if measured {
			verdict = "MISS"
			if ok {
				verdict = "PASS"
			}
		}
		w("- %s: **%s**%s\n", name, verdict, detail)
	}
	// ratio compares row a of ta with row b of tb: wall-time ratio, and a detail
	// that also gives the CPU-time ratio (steadier on a loaded machine).
	ratio := func(ta *table, a string, tb *table, b string) (float64, string, bool) {
		if ta == nil || tb == nil {
			return 0, "", false
		}
		ra, rb := ta.row(a), tb.row(b)
		if ra == nil || rb == nil {
			return 0, "", false
		}
		wall := float64(ra.medianWall()) / float64(rb.medianWall())
		cpu := float64(ra.medianCPU()) / float64(rb.medianCPU())
		return wall, fmt.Sprintf(" (%.2f× wall, %.2f× CPU)", wall, cpu), true
	}

	std := find("std", "analysis-cold")
	r, d, ok := ratio(std, "lockvet", std, "staticcheck")
	line("analysis-cold `lockvet std` ≤ 0.5× staticcheck", r <= 0.5, ok, d)
	r, d, ok = ratio(std, "lockvet", std, "govet")
	line("analysis-cold `lockvet std` ≤ 1.0× `go vet std`", r <= 1.0, ok, d)

	var sets []string
	for _, t := range rep.tables {
		if !slices.Contains(sets, t.set.key) {
			sets = append(sets, t.set.key)
		}
	}
	seen := false
	for _, s := range sets {
		r, d, ok := ratio(find(s, "warm"), "lockvet", find(s, "analysis-cold"), "lockvet")
		if !ok {
			continue
		}
		seen = true
		line(fmt.Sprintf("%s: lockvet warm ≤ 0.1× analysis-cold", s), r <= 0.1, true, d)
	}
	if !seen {
		line("lockvet warm ≤ 0.1× analysis-cold", false, false, "")
	}
	seen = false
	for _, s := range sets {
		t := find(s, "vettool")
		if r, d, ok := ratio(t, "vettool", t, "govet"); ok {
			seen = true
			line(fmt.Sprintf("%s: `go vet -vettool=lockvet` ≤ 1.1× `go vet`", s), r <= 1.1, true, d)
		}
	}
	if !seen {
		line("`go vet -vettool=lockvet` ≤ 1.1× `go vet`", false, false, "")
	}
	seen = false
	for _, s := range sets {
		t := find(s, "analysis-cold")
		if t == nil || t.row("lockvet") == nil || t.row("staticcheck") == nil {
			continue
		}
		seen = true
		a, b := t.row("lockvet").medianRSS(), t.row("staticcheck").medianRSS()
		line(fmt.Sprintf("%s: lockvet peak RSS ≤ staticcheck's (analysis-cold)", s), a <= b, true, fmt.Sprintf(" (%s vs %s)", mib(a), mib(b)))
	}
	if !seen {
		line("lockvet peak RSS ≤ staticcheck's", false, false, "")
	}

	var gens []*table
	for _, t := range rep.tables {
		if t.set.gen > 0 && t.state == "analysis-cold" && t.row("lockvet") != nil {
			gens = append(gens, t)
		}
	}
	slices.SortFunc(gens, func(a, b *table) int { return a.set.packages - b.set.packages })
	if len(gens) >= 2 && gens[0].set.packages < gens[len(gens)-1].set.packages {
		lo, hi := gens[0], gens[len(gens)-1]
		a, b := perPackage(lo, lo.row("lockvet")), perPackage(hi, hi.row("lockvet"))
		var parts []string
		for _, t := range gens {
			parts = append(parts, fmt.Sprintf("%d: %.1f ms (CPU %.1f ms)", t.set.packages, perPackage(t, t.row("lockvet")), cpuPerPackage(t, t.row("lockvet"))))
		}
		line("lockvet time linear in package count (analysis-cold time per package at the largest size ≤ 1.5× that at the smallest)", b <= 1.5*a, true,
			fmt.Sprintf(" (per package: %s)", strings.Join(parts, ", ")))
	} else {
		line("lockvet time linear in package count", false, false, "")
	}
	w("\n")
}

func orNA(s string) string {
	if s == "" {
		return "not run"
	}
	return s
}

func secs(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	if d < 10*time.Second {
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

func mib(n int64) string {
	if n == 0 {
		return "-"
	}
	if n >= 1<<30 {
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
}

func shortPath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// command is how this run was started, for the report.
func command() string {
	var q []string
	for _, a := range os.Args[1:] {
		if strings.ContainsAny(a, " \t\"'$`\\|&;<>()*?[]#~") || a == "" {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q = append(q, a)
	}
	return strings.TrimSpace("go run ./bench " + strings.Join(q, " "))
}
