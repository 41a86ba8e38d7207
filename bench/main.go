//go:build linux

// Command bench measures what lockvet costs next to go vet and staticcheck.
//
// From the repository root:
//
//	go run ./bench -o bench/RESULTS.md   # the full run: all sets, all states, 5 repetitions
//	go run ./bench -short                # CI smoke run: fails only if a tool run fails
//	go run ./bench -sets std -states analysis-cold -n 3
//	go run ./bench -gen /tmp/gen1k -sizes 1000   # only write a generated module
//
// Each run builds lockvet afresh from the repository (go build ./cmd/lockvet) and,
// unless present, staticcheck (go install honnef.co/go/tools/cmd/staticcheck@VERSION)
// into the work directory (-work). Every tool is then run on the same package set,
// interleaved (lockvet, go vet, staticcheck, lockvet, go vet, …) so that noise from
// the machine hits all of them alike, -n times per state:
//
//   - analysis-cold: each run gets a fresh copy (hard links) of a GOCACHE prepared
//     once for the set by `go build` and `go list -export -compiled -deps -test -pgo=off`, and
//     empty STATICCHECK_CACHE and XDG_CACHE_HOME: compilation is cached, analysis
//     is not. This isolates what analysis costs; go vet keeps its results and facts
//     in GOCACHE, staticcheck in STATICCHECK_CACHE, and lockvet (on staticcheck's
//     runner) in XDG_CACHE_HOME, which is why every run gets fresh copies of all
//     of them.
//   - cold: an empty GOCACHE and STATICCHECK_CACHE each run; everything the tool
//     needs is compiled or analysed from scratch.
//   - warm: per tool, one unmeasured run on a copy of the prepared GOCACHE, then the
//     measured runs on that same cache, nothing changed in between.
//   - vettool: `go vet -vettool=<lockvet>` against plain `go vet`, analysis-cold.
//
// The "warm ≤ 0.1× cold" target compares warm with analysis-cold. Generated modules
// and prepared GOCACHEs are kept in the work directory between runs (a template is
// remade when the go version changes; -fresh discards them all); preparing std's,
// which compiles every test variant, is the longest step of a first run.
//
// -short is the CI smoke run: a 200-package generated module, lockvet and go vet,
// analysis-cold and vettool, one run each, with -sharedcache: no template is
// prepared, the runs use the caller's GOCACHE (and fresh staticcheck/XDG caches),
// which saves compiling the standard library into an empty cache. Its timings are
// not comparable with a full run's.
//
// -baseline COMMIT also builds lockvet as it was at COMMIT and runs it as one
// more tool, interleaved with the others: its row's ratio is what the lockvet
// of the working tree costs against that commit, measured in one run (how
// issue 14's "within 10 % of the cost before" is checked).
//
// Package sets: std (the standard library), testcases (lockvet's testdata/src
// module, ./...) and gen (a generated module of -sizes packages, see bench/gen).
//
// What is measured, per run: wall time from start to exit of the tool's process;
// CPU time (user+system) and peak RSS from the rusage that wait4 returns for the
// direct child. On Linux that rusage covers the child and every descendant it
// waited for, and its ru_maxrss is the largest peak RSS of any one of those
// processes (not a sum): for go vet, the larger of the go command and the largest
// single vet or compile process it ran; for staticcheck and lockvet, the tool
// process itself (or go list, if that was larger). Because go vet runs several vet
// processes at once, the report also has a sampled peak of the sum of the RSS of
// every process in the run's process group (read from /proc every -sample).
// Medians are over the -n runs.
//
// Exit status: 0 when every tool run succeeded, 1 when one failed (an exit code
// the tool does not use for findings, or a panic, fatal error, internal error or
// type error in its output), 2 for usage errors. Timings never fail the run; the
// targets are reported as PASS/MISS.
//
// Linux only: it reads /proc and rusage.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/lockvet/lockvet/bench/gen"
)

const staticcheckPkg = "honnef.co/go/tools/cmd/staticcheck"

var (
	flagN         = flag.Int("n", 5, "repetitions per tool and state")
	flagSets      = flag.String("sets", "std,testcases,gen", "package sets: std, testcases, gen")
	flagSizes     = flag.String("sizes", "1000,5000,10000", "package counts of the generated modules")
	flagStates    = flag.String("states", "analysis-cold,vettool,warm,cold", "states: analysis-cold, vettool, warm, cold")
	flagTools     = flag.String("tools", "lockvet,govet,staticcheck", "tools: lockvet, govet, staticcheck")
	flagWork      = flag.String("work", filepath.Join(os.TempDir(), "lockvet-bench"), "work directory: tools, caches, generated modules, logs")
	flagOut       = flag.String("o", "", "also write the markdown report to this file")
	flagShort     = flag.Bool("short", false, "CI smoke run: a 200-package generated module, analysis-cold and vettool, lockvet and go vet, 1 repetition")
	flagNote      = flag.String("note", "", "a note to put at the top of the report")
	flagTimeout   = flag.Duration("timeout", time.Hour, "limit for one tool run")
	flagSample    = flag.Duration("sample", 100*time.Millisecond, "how often to sample the process group's RSS; 0 turns it off")
	flagSCVersion = flag.String("staticcheck", "v0.8.2", "staticcheck version to install")
	flagSeed      = flag.Int64("seed", 1, "seed of the generated modules")
	flagFresh     = flag.Bool("fresh", false, "discard prepared caches and generated modules in the work directory first")
	flagGen       = flag.String("gen", "", "only write a generated module of the first -sizes packages into this directory, and exit")
	flagBaseline  = flag.String("baseline", "", "also run lockvet built at this `commit` as a tool, interleaved with the others: its row's ratio is what lockvet costs against that commit")
	flagShared    = flag.Bool("sharedcache", false, "no prepared compile cache: analysis-cold, vettool and warm runs use the caller's GOCACHE (quick, but go vet may find its results cached there); -short sets it")
)

func main() {
	log := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./bench [flags]\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *flagShort {
		setDefault("n", "1")
		setDefault("sets", "gen")
		setDefault("sizes", "200")
		setDefault("states", "analysis-cold,vettool")
		setDefault("tools", "lockvet,govet")
		setDefault("sharedcache", "true")
	}
	sizes, err := parseSizes(*flagSizes)
	if err != nil {
		log("bench: -sizes: %v", err)
		os.Exit(2)
	}
	repo, err := repoRoot()
	if err != nil {
		log("bench: %v", err)
		os.Exit(2)
	}
	if *flagGen != "" {
		st, err := generate(repo, *flagGen, sizes[0])
		if err != nil {
			log("bench: %v", err)
			os.Exit(1)
		}
		log("bench: wrote %s: %+v", *flagGen, st)
		return
	}
	sets, err := choose("sets", *flagSets, "std", "testcases", "gen")
	if err == nil {
		_, err = choose("states", *flagStates, "analysis-cold", "vettool", "warm", "cold")
	}
	var tools []string
	if err == nil {
		tools, err = choose("tools", *flagTools, "lockvet", "govet", "staticcheck")
	}
	if err != nil || *flagN < 1 {
		log("bench: %v", err)
		flag.Usage()
		os.Exit(2)
	}
	states, _ := choose("states", *flagStates, "analysis-cold", "vettool", "warm", "cold")

	work, err := filepath.Abs(*flagWork)
	if err != nil {
		log("bench: %v", err)
		os.Exit(2)
	}
	if *flagFresh {
		for _, d := range []string{"templates", "gen"} {
			os.RemoveAll(filepath.Join(work, d))
		}
	}
	if err := os.MkdirAll(filepath.Join(work, "tools"), 0o755); err != nil {
		log("bench: %v", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	started := time.Now()
	b := &bench{work: work, repo: repo, log: log, ctx: ctx, shared: *flagShared}
	b.info = machineInfo()
	log("bench: building lockvet")
	b.info.lockvet = lockvetVersion(repo) // what is built now, whatever changes later
	b.lockvet = filepath.Join(work, "tools", "lockvet")
	if out, err := b.goCmd(repo, nil, "build", "-o", b.lockvet, "./cmd/lockvet"); err != nil {
		log("bench: building lockvet: %v\n%s", err, out)
		os.Exit(1)
	}
	if *flagBaseline != "" {
		path, version, err := b.buildAt(*flagBaseline)
		if err != nil {
			log("bench: building lockvet at %s: %v", *flagBaseline, err)
			os.Exit(1)
		}
		b.baseline, b.info.baseline = path, version
		toolTitle["baseline"] = "lockvet " + version
		tools = append(tools, "baseline")
	}
	needSC := contains(tools, "staticcheck")
	if needSC {
		if err := b.installStaticcheck(*flagSCVersion); err != nil {
			log("bench: %v", err)
			os.Exit(1)
		}
	}

	var setList []*pkgSet
	for _, s := range sets {
		switch s {
		case "std":
			setList = append(setList, &pkgSet{key: "std", title: "std (the standard library)", dir: filepath.Join(work, "stddir"), patterns: []string{"std"}})
		case "testcases":
			setList = append(setList, &pkgSet{key: "testcases", title: "testcases (lockvet's testdata/src module, ./...)", dir: filepath.Join(repo, "testdata", "src"), patterns: []string{"./..."}})
		case "gen":
			for _, n := range sizes {
				setList = append(setList, &pkgSet{key: fmt.Sprintf("gen%d", n), title: fmt.Sprintf("gen-%d (generated module, %d packages)", n, n), gen: n, patterns: []string{"./..."}})
			}
		}
	}

	rep := &report{info: b.info, started: started, note: *flagNote, n: *flagN, shared: b.shared}
	failed := false
	for _, set := range setList {
		if err := b.prepare(set); err != nil {
			log("bench: %s: %v", set.key, err)
			rep.failures = append(rep.failures, fmt.Sprintf("%s: preparing: %v", set.key, err))
			failed = true
			continue
		}
		for _, state := range states {
			if ctx.Err() != nil {
				break
			}
			tl := tools
			if state == "vettool" {
				if !contains(tools, "govet") || !contains(tools, "lockvet") {
					continue
				}
				tl = []string{"govet", "vettool"}
			}
			tab := b.measure(set, state, tl, *flagN)
			rep.tables = append(rep.tables, tab)
			for _, r := range tab.rows {
				for i, run := range r.runs {
					if run.failure != "" {
						failed = true
						rep.failures = append(rep.failures, fmt.Sprintf("%s %s %s run %d: %s (log %s)", set.key, state, r.tool, i+1, run.failure, run.log))
					}
				}
			}
		}
	}
	if ctx.Err() != nil {
		rep.failures = append(rep.failures, "interrupted")
		failed = true
	}
	rep.info.loadAfter = loadAvg()
	rep.elapsed = time.Since(started)
	if sc := b.staticcheckVersion; sc != "" {
		rep.info.staticcheck = sc
	}
	md := rep.markdown()
	fmt.Print(md)
	if *flagOut != "" {
		if err := os.WriteFile(*flagOut, []byte(md), 0o644); err != nil {
			log("bench: %v", err)
			failed = true
		}
	}
	if failed {
		log("bench: FAILED:\n\t%s", strings.Join(rep.failures, "\n\t"))
		os.Exit(1)
	}
}

func setDefault(name, value string) {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	if !set {
		flag.Set(name, value)
	}
}

func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad size %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func choose(what, list string, known ...string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !contains(known, f) {
			return nil, fmt.Errorf("-%s: unknown %q (want some of %s)", what, f, strings.Join(known, ","))
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-%s: empty", what)
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// repoRoot finds the lockvet repository from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(bytes.TrimSpace(b), []byte("module github.com/lockvet/lockvet\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run from inside the lockvet repository")
		}
		dir = parent
	}
}

func generate(repo, dir string, n int) (gen.Stats, error) {
	gomod, err := os.ReadFile(filepath.Join(repo, "examples", "go.mod"))
	if err != nil {
		return gen.Stats{}, err
	}
	gosum, err := os.ReadFile(filepath.Join(repo, "examples", "go.sum"))
	if err != nil {
		return gen.Stats{}, err
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		return gen.Stats{}, fmt.Errorf("%s is not empty", dir)
	}
	return gen.Generate(dir, gen.Config{Packages: n, Seed: *flagSeed, GoMod: gomod, GoSum: gosum})
}

type bench struct {
	ctx                context.Context
	work, repo         string
	lockvet            string
	baseline           string // lockvet built at -baseline, or ""
	staticcheck        string
	staticcheckVersion string
	info               machine
	log                func(string, ...any)
	shared             bool // use the caller's GOCACHE instead of copies of a prepared one
}

// baseEnv is the environment every command gets: the caller's, less the cache
// locations the bench sets itself, with GOTOOLCHAIN=local.
func baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOCACHE", "STATICCHECK_CACHE", "XDG_CACHE_HOME", "GOTOOLCHAIN", "GOMAXPROCS":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOTOOLCHAIN=local")
}

// goCmd runs the go command in dir with extra environment, and returns its
// combined output.
func (b *bench) goCmd(dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(b.ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(baseEnv(), env...)
	return cmd.CombinedOutput()
}

func (b *bench) installStaticcheck(version string) error {
	bin := filepath.Join(b.work, "tools", "staticcheck")
	want := "(" + strings.TrimPrefix(version, "v") + ")"
	if out, err := exec.Command(bin, "-version").Output(); err == nil && strings.Contains(string(out), want) {
		b.staticcheck, b.staticcheckVersion = bin, strings.TrimSpace(string(out))
		return nil
	}
	b.log("bench: installing staticcheck %s", version)
	if out, err := b.goCmd(b.work, []string{"GOBIN=" + filepath.Dir(bin)}, "install", staticcheckPkg+"@"+version); err != nil {
		return fmt.Errorf("installing staticcheck: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-version").Output()
	if err != nil {
		return fmt.Errorf("staticcheck -version: %v", err)
	}
	b.staticcheck, b.staticcheckVersion = bin, strings.TrimSpace(string(out))
	return nil
}

// pkgSet is a set of packages the tools run on.
type pkgSet struct {
	key, title string
	dir        string   // working directory of every run
	patterns   []string // package patterns
	gen        int      // for generated modules: the package count
	template   string   // the prepared GOCACHE
	packages   int      // packages the patterns match
	genStats   gen.Stats
}

// prepare generates the module (for gen sets) and the template GOCACHE, both kept
// in the work directory across runs of the bench.
func (b *bench) prepare(set *pkgSet) error {
	if set.gen > 0 {
		set.dir = filepath.Join(b.work, "gen", fmt.Sprintf("%s-seed%d-v%s", set.key, *flagSeed, gen.Version))
		stamp := filepath.Join(set.dir, ".complete")
		if _, err := os.Stat(stamp); err != nil {
			os.RemoveAll(set.dir)
			b.log("bench: %s: generating %s", set.key, set.dir)
			st, err := generate(b.repo, set.dir, set.gen)
			if err != nil {
				return err
			}
			data, err := json.Marshal(st)
			if err != nil {
				return err
			}
			if err := os.WriteFile(stamp, data, 0o644); err != nil {
				return err
			}
		}
		data, err := os.ReadFile(stamp)
		if err == nil {
			err = json.Unmarshal(data, &set.genStats)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", stamp, err)
		}
	}
	if err := os.MkdirAll(set.dir, 0o755); err != nil {
		return err
	}
	tdir := filepath.Join(b.work, "templates", set.key)
	if set.gen > 0 {
		tdir = filepath.Join(b.work, "templates", filepath.Base(set.dir))
	}
	if b.shared {
		// No template: the caller's GOCACHE, warmed by a go build that is not measured.
		b.log("bench: %s: go build with the caller's GOCACHE", set.key)
		if out, err := b.goCmd(set.dir, nil, append([]string{"build"}, set.patterns...)...); err != nil {
			return fmt.Errorf("go build: %v\n%s", err, out)
		}
		out, err := b.goCmd(set.dir, nil, append([]string{"list"}, set.patterns...)...)
		if err != nil {
			return fmt.Errorf("go list: %v\n%s", err, out)
		}
		set.packages = len(strings.Fields(string(out)))
		return nil
	}
	set.template = filepath.Join(tdir, "gocache")
	stamp := filepath.Join(tdir, "stamp")
	want := fmt.Sprintf("%s\n%s\n%s\n", b.info.goVersion, set.key, strings.Join(set.patterns, " "))
	if got, err := os.ReadFile(stamp); err != nil || string(got) != want {
		os.RemoveAll(tdir)
		t0 := time.Now()
		if seed := b.seedTemplate(set); seed != "" {
			// Another generated module's template already holds the standard library
			// and go-redis compiled: start from it. Its other entries are never used.
			b.log("bench: %s: starting the compile cache from %s", set.key, seed)
			if err := copyDir(seed, set.template, false); err != nil {
				return err
			}
		} else if err := os.MkdirAll(set.template, 0o755); err != nil {
			return err
		}
		b.log("bench: %s: preparing the compile cache (go build, go list -export -deps -test)", set.key)
		env := []string{"GOCACHE=" + set.template}
		if out, err := b.goCmd(set.dir, env, append([]string{"build"}, set.patterns...)...); err != nil {
			return fmt.Errorf("go build: %v\n%s", err, out)
		}
		if out, err := b.goCmd(set.dir, env, append([]string{"list", "-e", "-export", "-compiled", "-deps", "-test", "-pgo=off", "-f", "{{if .Error}}{{.ImportPath}}: {{.Error}}{{end}}"}, set.patterns...)...); err != nil || len(bytes.TrimSpace(out)) > 0 {
			return fmt.Errorf("go list -export: %v\n%s", err, out)
		}
		b.log("bench: %s: compile cache ready in %s", set.key, time.Since(t0).Round(time.Second))
		if err := os.WriteFile(stamp, []byte(want), 0o644); err != nil {
			return err
		}
	}
	out, err := b.goCmd(set.dir, []string{"GOCACHE=" + set.template}, append([]string{"list"}, set.patterns...)...)
	if err != nil {
		return fmt.Errorf("go list: %v\n%s", err, out)
	}
	set.packages = len(strings.Fields(string(out)))
	return nil
}

// seedTemplate returns a finished template of another generated module that a
// generated module's template can start from, or "".
func (b *bench) seedTemplate(set *pkgSet) string {
	if set.gen == 0 {
		return ""
	}
	stamps, _ := filepath.Glob(filepath.Join(b.work, "templates", "gen*", "stamp"))
	for _, st := range stamps {
		data, err := os.ReadFile(st)
		if err == nil && strings.HasPrefix(string(data), b.info.goVersion+"\n") {
			return filepath.Join(filepath.Dir(st), "gocache")
		}
	}
	return ""
}

// run is one measured run of one tool.
type run struct {
	wall, cpu time.Duration
	maxRSS    int64 // bytes: ru_maxrss of the direct child (largest single process)
	treeRSS   int64 // bytes: sampled peak of the process group's summed RSS
	exit      int
	failure   string // why this run counts as failed, or ""
	log       string // where its output is
}

// toolArgs is the command line of tool on set.
func (b *bench) toolArgs(tool string, set *pkgSet) []string {
	switch tool {
	case "lockvet":
		return append([]string{b.lockvet}, set.patterns...)
	case "govet":
		return append([]string{"go", "vet"}, set.patterns...)
	case "vettool":
		return append([]string{"go", "vet", "-vettool=" + b.lockvet}, set.patterns...)
	case "staticcheck":
		return append([]string{b.staticcheck}, set.patterns...)
	case "baseline":
		return append([]string{b.baseline}, set.patterns...)
	}
	panic(tool)
}

// okExit are the exit codes that mean "ran, maybe with findings".
var okExit = map[string][]int{
	"lockvet":     {0, 3},
	"baseline":    {0, 3},
	"govet":       {0, 1},
	"vettool":     {0, 1},
	"staticcheck": {0, 1},
}

var toolTitle = map[string]string{
	"lockvet":     "lockvet",
	"govet":       "go vet",
	"vettool":     "go vet -vettool=lockvet",
	"staticcheck": "staticcheck",
}

// measure runs every tool n times on set in state, interleaved.
func (b *bench) measure(set *pkgSet, state string, tools []string, n int) *table {
	tab := &table{set: set, state: state}
	for _, t := range tools {
		tab.rows = append(tab.rows, &row{tool: t})
	}
	logs := filepath.Join(b.work, "logs", set.key, state)
	os.MkdirAll(logs, 0o755)
	scratch := filepath.Join(b.work, "runs", strconv.Itoa(os.Getpid()))
	defer os.RemoveAll(scratch)

	// warm: one unmeasured run per tool on its own copy of the template.
	warm := map[string]string{}
	warmCache := map[string]string{}
	if state == "warm" {
		for _, t := range tools {
			dir := filepath.Join(scratch, "warm-"+t)
			os.RemoveAll(dir)
			gocache, err := b.newCache(set, state, dir)
			if err != nil {
				tab.rows[0].runs = append(tab.rows[0].runs, run{failure: err.Error()})
				return tab
			}
			warm[t] = dir
			warmCache[t] = gocache
			b.log("bench: %s %s: warming %s", set.key, state, toolTitle[t])
			r := b.runTool(t, set, dir, gocache, filepath.Join(logs, t+"-warmup"))
			if r.failure != "" {
				b.log("bench: %s %s: warm-up of %s failed: %s", set.key, state, t, r.failure)
			}
		}
		defer func() {
			for _, dir := range warm {
				os.RemoveAll(dir)
			}
		}()
	}

	for i := range n {
		for _, row := range tab.rows {
			if b.ctx.Err() != nil {
				return tab
			}
			dir, gocache := warm[row.tool], warmCache[row.tool]
			if dir == "" {
				dir = filepath.Join(scratch, "run")
				os.RemoveAll(dir)
				var err error
				if gocache, err = b.newCache(set, state, dir); err != nil {
					row.runs = append(row.runs, run{failure: err.Error()})
					continue
				}
			}
			r := b.runTool(row.tool, set, dir, gocache, filepath.Join(logs, fmt.Sprintf("%s-%d", row.tool, i+1)))
			row.runs = append(row.runs, r)
			status := "ok"
			if r.failure != "" {
				status = "FAILED: " + r.failure
			}
			b.log("bench: [%s %s %d/%d] %-24s wall %7s  cpu %7s  rss %8s  tree %8s  exit %d  %s",
				set.key, state, i+1, n, toolTitle[row.tool], secs(r.wall), secs(r.cpu), mib(r.maxRSS), mib(r.treeRSS), r.exit, status)
			if warm[row.tool] == "" {
				os.RemoveAll(dir)
			}
		}
	}
	return tab
}

// newCache returns the GOCACHE for a run in state whose other caches live in dir:
// an empty one under dir for cold, the caller's with -sharedcache, else a fresh
// copy of the set's template under dir.
func (b *bench) newCache(set *pkgSet, state, dir string) (string, error) {
	gocache := filepath.Join(dir, "gocache")
	switch {
	case state == "cold":
		return gocache, os.MkdirAll(gocache, 0o755)
	case b.shared:
		out, err := exec.Command("go", "env", "GOCACHE").Output()
		if err != nil {
			return "", fmt.Errorf("go env GOCACHE: %v", err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	return gocache, copyDir(set.template, gocache, true)
}

// runTool runs tool on set with GOCACHE gocache and its other caches (staticcheck's,
// XDG_CACHE_HOME) under dir, output to logBase.{out,err}.
func (b *bench) runTool(tool string, set *pkgSet, dir, gocache, logBase string) run {
	for _, d := range []string{"staticcheck", "xdg"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	env := append(baseEnv(),
		"GOCACHE="+gocache,
		"STATICCHECK_CACHE="+filepath.Join(dir, "staticcheck"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "xdg"))
	args := b.toolArgs(tool, set)
	r := execMeasured(b.ctx, args, set.dir, env, logBase, *flagTimeout, *flagSample)
	if r.failure == "" {
		if !containsInt(okExit[tool], r.exit) {
			r.failure = fmt.Sprintf("exit status %d", r.exit)
		} else if bad := badOutput(tool, logBase); bad != "" {
			r.failure = "output has " + strconv.Quote(bad)
		}
	}
	return r
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

// badOutput returns the first line of the run's output that shows the tool broke
// rather than reported findings.
func badOutput(tool, logBase string) string {
	markers := []string{"panic: ", "fatal error: ", "internal error", "SIGSEGV"}
	var prefixes []string
	switch tool {
	case "govet":
		prefixes = []string{"vet: "}
	case "vettool":
		prefixes = []string{"vet: ", "lockvet: "}
	}
	for _, ext := range []string{".out", ".err"} {
		data, _ := os.ReadFile(logBase + ext)
		for _, line := range strings.Split(string(data), "\n") {
			for _, m := range markers {
				if strings.Contains(line, m) {
					return line
				}
			}
			for _, p := range prefixes {
				if strings.HasPrefix(line, p) {
					return line
				}
			}
			if tool == "staticcheck" && strings.HasSuffix(line, "(compile)") {
				return line
			}
		}
	}
	return ""
}

// execMeasured runs args in its own process group and measures it.
func execMeasured(ctx context.Context, args []string, dir string, env []string, logBase string, timeout, sample time.Duration) run {
	r := run{log: logBase + ".{out,err}", exit: -1}
	stdout, err1 := os.Create(logBase + ".out")
	stderr, err2 := os.Create(logBase + ".err")
	if err := errors.Join(err1, err2); err != nil {
		r.failure = err.Error()
		return r
	}
	defer stdout.Close()
	defer stderr.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		r.failure = err.Error()
		return r
	}
	pgid := cmd.Process.Pid
	done := make(chan struct{})
	peak := make(chan int64, 1)
	go func() { peak <- sampleGroup(pgid, sample, done) }()
	var timedOut atomic.Bool
	killer := make(chan struct{})
	go func() {
		select {
		case <-time.After(timeout):
			timedOut.Store(true)
			syscall.Kill(-pgid, syscall.SIGKILL)
		case <-ctx.Done():
			syscall.Kill(-pgid, syscall.SIGKILL)
		case <-killer:
		}
	}()
	err := cmd.Wait()
	r.wall = time.Since(start)
	close(killer)
	close(done)
	r.treeRSS = <-peak
	// Descendants the tool left behind would hold the group; they are not ours to keep.
	syscall.Kill(-pgid, syscall.SIGKILL)
	if ps := cmd.ProcessState; ps != nil {
		r.exit = ps.ExitCode()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			r.maxRSS = ru.Maxrss * 1024 // KiB on Linux
			r.cpu = time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
		}
	}
	var ee *exec.ExitError
	switch {
	case timedOut.Load():
		r.failure = fmt.Sprintf("timed out after %s", timeout)
	case ctx.Err() != nil:
		r.failure = "interrupted"
	case err != nil && !errors.As(err, &ee):
		r.failure = err.Error()
	case r.exit < 0:
		r.failure = "killed by a signal: " + ps(cmd)
	}
	return r
}

func ps(cmd *exec.Cmd) string {
	if cmd.ProcessState == nil {
		return "?"
	}
	return cmd.ProcessState.String()
}

var pageSize = int64(os.Getpagesize())

// sampleGroup returns the largest sum of the RSS of the processes in process
// group pgid seen by reading /proc every interval until done is closed.
func sampleGroup(pgid int, every time.Duration, done <-chan struct{}) int64 {
	if every <= 0 {
		<-done
		return 0
	}
	var peak int64
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if s := groupRSS(pgid); s > peak {
			peak = s
		}
		select {
		case <-done:
			return peak
		case <-tick.C:
		}
	}
}

func groupRSS(pgid int) int64 {
	d, err := os.Open("/proc")
	if err != nil {
		return 0
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var sum int64
	for _, name := range names {
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		data, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue
		}
		// Fields after the command name, which is in parentheses and may hold spaces:
		// state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
		// utime stime cutime cstime priority nice num_threads itrealvalue starttime
		// vsize rss.
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(data[i+1:]))
		if len(f) < 22 {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g != pgid {
			continue
		}
		rss, _ := strconv.ParseInt(f[21], 10, 64)
		sum += rss * pageSize
	}
	return sum
}

// copyDir copies the directory tree src to dst (which must not exist). With
// link, the copy's files are hard links: a run's GOCACHE then costs no time or
// disk however large the template (a 5000-package template is ~10 GB). The go
// command never rewrites a cache entry it finds valid; it adds new files, which
// stay in the run's copy, and updates modification times, which the template
// may share harmlessly.
func copyDir(src, dst string, link bool) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	flags := "-a"
	if link {
		flags = "-al"
	}
	if out, err := exec.Command("cp", flags, src, dst).CombinedOutput(); err != nil {
		return fmt.Errorf("cp %s %s %s: %v\n%s", flags, src, dst, err, out)
	}
	return nil
}

// machine describes where the numbers come from.
type machine struct {
	cpus                  int
	cpuModel, memory      string
	goVersion, goflags    string
	staticcheck, lockvet  string
	baseline              string // the -baseline commit, or ""
	loadBefore, loadAfter string
}

func machineInfo() machine {
	m := machine{cpus: runtime.NumCPU(), loadBefore: loadAvg()}
	if out, err := exec.Command("go", "version").Output(); err == nil {
		m.goVersion = strings.TrimSpace(string(out))
	}
	if out, err := exec.Command("go", "env", "GOFLAGS").Output(); err == nil {
		m.goflags = strings.TrimSpace(string(out))
	}
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.cpuModel = strings.TrimSpace(v)
				break
			}
		}
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				kib, _ := strconv.ParseInt(f[1], 10, 64)
				m.memory = fmt.Sprintf("%.1f GiB", float64(kib)/(1<<20))
			}
		}
	}
	return m
}

func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// buildAt builds lockvet as it was at rev, from an archive of that commit, into
// the tools directory, and returns the binary and the commit's short hash.
func (b *bench) buildAt(rev string) (string, string, error) {
	out, err := exec.Command("git", "-C", b.repo, "rev-parse", "--short=12", "--verify", rev+"^{commit}").Output()
	if err != nil {
		return "", "", fmt.Errorf("%s is not a commit of the repository", rev)
	}
	version := strings.TrimSpace(string(out))
	src := filepath.Join(b.work, "tools", "src-"+version)
	os.RemoveAll(src)
	defer os.RemoveAll(src)
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", "", err
	}
	archive := exec.Command("sh", "-c", `git -C "$1" archive "$2" | tar -x -C "$3"`, "sh", b.repo, version, src)
	if out, err := archive.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("git archive: %v: %s", err, bytes.TrimSpace(out))
	}
	bin := filepath.Join(b.work, "tools", "lockvet-"+version)
	if out, err := b.goCmd(src, nil, "build", "-o", bin, "./cmd/lockvet"); err != nil {
		return "", "", fmt.Errorf("%v: %s", err, out)
	}
	return bin, version, nil
}

// lockvetVersion is the repository's commit, marked when the tree has changes.
func lockvetVersion(repo string) string {
	cmd := exec.Command("git", "rev-parse", "--short=12", "HEAD")
	cmd.Dir = repo
	out, err := cmd.Output()
	if err != nil {
		return "unknown commit"
	}
	v := strings.TrimSpace(string(out))
	cmd = exec.Command("git", "status", "--porcelain", "--untracked-files=no")
	cmd.Dir = repo
	if st, err := cmd.Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		v += " (with uncommitted changes)"
	}
	return v
}
