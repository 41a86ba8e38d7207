package main_test

// Robustness: lockvet must neither crash nor hang on any Go the go command
// accepts. Each test writes a small module, runs the binary on it under a
// deadline, and checks that it exits 0 (clean) or 3 (findings) with no panic,
// and that the lock findings in it are still reported.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// robustDeadline bounds one run of lockvet: a hang fails the test instead of
// blocking the suite.
const robustDeadline = 4 * time.Minute

var warmOnce sync.Once

// parallel lets a robustness test run alongside the others, once a first run
// has filled the cache with what every one of them needs (go-redis and the
// standard library, analysed), which parallel first runs would each redo.
func parallel(t *testing.T) {
	warmOnce.Do(func() {
		dir := robustModule(t, map[string]string{"warm/warm.go": "package warm\n\n" + redisImports + naiveLock("Warm", "warm")})
		out, code := runBounded(t, dir, nil, "./...")
		sane(t, out, code)
	})
	t.Parallel()
}

// robustModule writes a module named robust that requires go-redis v9 as
// examples/ does, with files (paths relative to the module root).
func robustModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, ex := t.TempDir(), examplesDir(t)
	mod, err := os.ReadFile(filepath.Join(ex, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(mod), "\n")
	writeFile(t, filepath.Join(dir, "go.mod"), "module robust\n"+rest)
	sum, err := os.ReadFile(filepath.Join(ex, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.sum"), string(sum))
	for name, content := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
	return dir
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runBounded runs lockvet in dir with extra environment variables, killing it
// after robustDeadline.
func runBounded(t *testing.T, dir string, env []string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), robustDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	t.Logf("lockvet %s (%s): %v", strings.Join(args, " "), strings.Join(env, " "), time.Since(start).Round(time.Millisecond))
	if testing.Verbose() {
		t.Log(trim(out.String()))
	}
	if ctx.Err() != nil {
		t.Fatalf("lockvet %s did not finish within %v: a hang\n%s", strings.Join(args, " "), robustDeadline, trim(out.String()))
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("lockvet: %v", err)
	}
	return out.String(), 0
}

// sane fails the test unless lockvet exited 0 or 3 without a crash.
func sane(t *testing.T, out string, code int) {
	t.Helper()
	crashed(t, out)
	if code != 0 && code != 3 {
		t.Errorf("exit %d, want 0 or 3:\n%s", code, trim(out))
	}
}

// crashed fails the test if the output holds a panic or a runtime fatal error.
func crashed(t *testing.T, out string) {
	t.Helper()
	for _, sign := range []string{"panic:", "goroutine ", "fatal error:"} {
		if strings.Contains(out, sign) {
			t.Fatalf("lockvet crashed (%q in its output):\n%s", sign, trim(out))
		}
	}
}

// findingAt reports whether out holds a finding at file:line (file relative to
// the module, column any) whose message starts with msg.
func findingAt(out, file string, line int, msg string) bool {
	re := regexp.MustCompile(`(?m)(^|[/\\])` + regexp.QuoteMeta(file) + `:` + fmt.Sprint(line) + `:[0-9]+: ` + regexp.QuoteMeta(msg))
	return re.MatchString(out)
}

func wantFinding(t *testing.T, out, file string, line int, msg string) {
	t.Helper()
	if !findingAt(out, file, line, msg) {
		t.Errorf("no finding %q at %s:%d in:\n%s", msg, file, line, trim(out))
	}
}

// findingsIn counts the findings reported in file.
func findingsIn(out, file string) int {
	re := regexp.MustCompile(`(?m)(^|[/\\])` + regexp.QuoteMeta(file) + `:[0-9]+:[0-9]+: `)
	return len(re.FindAllString(out, -1))
}

func trim(out string) string {
	if len(out) > 8000 {
		return out[:4000] + "\n…\n" + out[len(out)-4000:]
	}
	return out
}

// lineOf returns the 1-based line of the first line of src containing marker.
func lineOf(t *testing.T, src, marker string) int {
	t.Helper()
	i := strings.Index(src, marker)
	if i < 0 {
		t.Fatalf("marker %q not in source", marker)
	}
	return strings.Count(src[:i], "\n") + 1
}

const constLock = "lock value is a constant"
const plainDel = "lock released with plain DEL"

// A go-redis lock with a constant value and a plain DEL: two findings, at the
// lines holding "SETNX:" + tag and "DEL:" + tag.
func naiveLock(fn, tag string) string {
	return fmt.Sprintf(`
func %s(ctx context.Context, rdb *redis.Client) {
	if rdb.SetNX(ctx, "lock:%s", 1, time.Second).Val() { // SETNX:%s
		defer rdb.Del(ctx, "lock:%s") // DEL:%s
	}
}
`, fn, tag, tag, tag, tag)
}

const redisImports = `import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)
`

func TestRobustGenerics(t *testing.T) {
	parallel(t)
	src := `// Package gen locks through generic types and functions.
package gen

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

// Key is any string-like key.
type Key interface{ ~string }

// Locker is a generic lock wrapper.
type Locker[K Key, V any] struct {
	rdb    redis.Cmdable
	prefix K
}

// Do runs f under the lock on key: a method of a generic receiver.
func (l *Locker[K, V]) Do(ctx context.Context, key K, f func() V) (V, error) {
	var zero V
	k := string(l.prefix + key)
	ok, err := l.rdb.SetNX(ctx, k, "1", 10*time.Second).Result() // SETNX:locker
	if err != nil || !ok {
		return zero, errBusy
	}
	defer l.rdb.Del(ctx, k) // DEL:locker
	return f(), nil
}

// Client is a type set of go-redis clients with the methods a lock needs.
type Client interface {
	*redis.Client | *redis.ClusterClient
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) *redis.BoolCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

// WithLock locks through a value of a type parameter.
func WithLock[C Client, T any](ctx context.Context, c C, key string, f func() T) (T, error) {
	var zero T
	ok, err := c.SetNX(ctx, key, "const", 10*time.Second).Result() // SETNX:typeparam
	if err != nil || !ok {
		return zero, errBusy
	}
	defer c.Del(ctx, key)
	return f(), nil
}

// Generic locks with a generic helper's result as the value.
func Generic[T comparable](ctx context.Context, rdb redis.Cmdable, key string, v T) bool {
	ok, err := rdb.SetNX(ctx, key, id(v), time.Second).Result()
	if err != nil || !ok {
		return false
	}
	defer rdb.Del(ctx, key) // DEL:generic
	return true
}

func id[T any](v T) T { return v }

// Pair is generic over its value; Lock is a value-receiver method.
type Pair[T any] struct {
	C redis.Cmdable
	V T
}

func (p Pair[T]) Lock(ctx context.Context, key string) bool {
	ok, err := p.C.SetNX(ctx, key, "v", time.Second).Result() // SETNX:pair
	if err != nil || !ok {
		return false
	}
	defer p.C.Del(ctx, key)
	return true
}

// List is a recursive generic type; Alias a generic alias.
type List[T any] struct {
	next *List[T]
	v    T
}

type Alias[T any] = Locker[string, T]

// Use instantiates them all.
func Use(ctx context.Context, rdb *redis.Client, cc *redis.ClusterClient) {
	l := &Locker[string, int]{rdb: rdb, prefix: "lock:"}
	_, _ = l.Do(ctx, "a", func() int { return 1 })
	var a Alias[[]string] = Locker[string, []string]{rdb: rdb}
	_, _ = a.Do(ctx, "b", func() []string { return nil })
	_, _ = WithLock(ctx, rdb, "k", func() string { return "" })
	_, _ = WithLock(ctx, cc, "k", func() *List[int] { return &List[int]{} })
	Generic(ctx, rdb, "g", struct{ A int }{1})
	Pair[[]int]{C: rdb}.Lock(ctx, "p")
}
`
	dir := robustModule(t, map[string]string{"gen/gen.go": src})
	out, code := runBounded(t, dir, nil, "./...")
	sane(t, out, code)
	wantFinding(t, out, "gen/gen.go", lineOf(t, src, "SETNX:locker"), constLock)
	wantFinding(t, out, "gen/gen.go", lineOf(t, src, "DEL:locker"), plainDel)
	wantFinding(t, out, "gen/gen.go", lineOf(t, src, "SETNX:pair"), constLock)
	wantFinding(t, out, "gen/gen.go", lineOf(t, src, "DEL:generic"), plainDel)
	if !findingAt(out, "gen/gen.go", lineOf(t, src, "SETNX:typeparam"), constLock) {
		t.Log("not reported: a lock taken through a value of a type parameter (SETNX:typeparam)")
	}
}

// A cgo file is left out with CGO_ENABLED=0, like the go command does, and
// analysed where cgo works, its findings at its own lines.
func TestRobustCgo(t *testing.T) {
	parallel(t)
	plain := "package cg\n\n" + redisImports + naiveLock("Plain", "plain")
	cgoFile := `package cg

/*
static int add(int a, int b) { return a + b; }
*/
import "C"

` + redisImports + `
// Add calls C.
func Add(a, b int) int { return int(C.add(C.int(a), C.int(b))) }
` + naiveLock("WithC", "cgo")
	cgoOnly := strings.Replace(cgoFile, "package cg", "package cgonly", 1)
	other := "package other\n\n" + redisImports + naiveLock("Other", "other")
	dir := robustModule(t, map[string]string{
		"cg/plain.go":    plain,
		"cg/cgo.go":      cgoFile,
		"cgonly/cgo.go":  cgoOnly,
		"other/other.go": other,
	})

	t.Run("CGO_ENABLED=0", func(t *testing.T) {
		env := []string{"CGO_ENABLED=0"}
		out, code := runBounded(t, dir, env, "./...")
		sane(t, out, code)
		wantFinding(t, out, "cg/plain.go", lineOf(t, plain, "SETNX:plain"), constLock)
		wantFinding(t, out, "other/other.go", lineOf(t, other, "SETNX:other"), constLock)
		if n := findingsIn(out, "cgo.go"); n != 0 {
			t.Errorf("%d findings in cgo files that CGO_ENABLED=0 leaves out:\n%s", n, out)
		}
		// Named on its own, a package of cgo files only has no Go files to
		// build: an error, not a crash.
		out, code = runBounded(t, dir, env, "./cgonly")
		crashed(t, out)
		if code != 1 {
			t.Errorf("./cgonly with CGO_ENABLED=0: exit %d, want 1 (the package has no Go files)\n%s", code, out)
		}
	})

	t.Run("CGO_ENABLED=1", func(t *testing.T) {
		if _, err := exec.LookPath("gcc"); err != nil {
			if _, err := exec.LookPath("cc"); err != nil {
				t.Skip("no C compiler")
			}
		}
		out, code := runBounded(t, dir, []string{"CGO_ENABLED=1"}, "./...")
		sane(t, out, code)
		wantFinding(t, out, "cg/plain.go", lineOf(t, plain, "SETNX:plain"), constLock)
		wantFinding(t, out, "cg/cgo.go", lineOf(t, cgoFile, "SETNX:cgo"), constLock)
		wantFinding(t, out, "cg/cgo.go", lineOf(t, cgoFile, "DEL:cgo"), plainDel)
		wantFinding(t, out, "cgonly/cgo.go", lineOf(t, cgoOnly, "SETNX:cgo"), constLock)
	})
}

// Files a build constraint leaves out are not analysed, whatever they hold; a
// custom tag brings its files in.
func TestRobustBuildTags(t *testing.T) {
	parallel(t)
	plain := "package tags\n\n" + redisImports + naiveLock("Plain", "plain")
	custom := "//go:build custom\n\npackage tags\n\n" + redisImports + naiveLock("Custom", "custom")
	notCustom := "//go:build !custom\n\npackage tags\n\n" + redisImports + naiveLock("NotCustom", "notcustom")
	// An ignored file is often a generator in package main: it must not even
	// be loaded.
	ignored := "//go:build ignore\n\npackage main\n\n" + redisImports + naiveLock("Ignored", "ignored") +
		"\nfunc main() { undefined() }\n"
	dir := robustModule(t, map[string]string{
		"tags/plain.go":     plain,
		"tags/custom.go":    custom,
		"tags/notcustom.go": notCustom,
		"tags/gen.go":       ignored,
		// A directory holding only an ignored file has no package for ./...
		"tools/tools.go": ignored,
	})
	check := func(t *testing.T, out string, code int, withCustom bool) {
		t.Helper()
		sane(t, out, code)
		wantFinding(t, out, "tags/plain.go", lineOf(t, plain, "SETNX:plain"), constLock)
		if findingsIn(out, "gen.go") != 0 || findingsIn(out, "tools.go") != 0 {
			t.Errorf("findings in //go:build ignore files:\n%s", out)
		}
		if got := findingsIn(out, "tags/custom.go") > 0; got != withCustom {
			t.Errorf("findings in the custom-tag file: %v, want %v\n%s", got, withCustom, out)
		}
		if got := findingsIn(out, "tags/notcustom.go") > 0; got == withCustom {
			t.Errorf("findings in the !custom file: %v, want %v\n%s", got, !withCustom, out)
		}
	}
	t.Run("no tags", func(t *testing.T) {
		out, code := runBounded(t, dir, nil, "./...")
		check(t, out, code, false)
	})
	t.Run("GOFLAGS=-tags=custom", func(t *testing.T) {
		out, code := runBounded(t, dir, []string{"GOFLAGS=-tags=custom"}, "./...")
		check(t, out, code, true)
	})
	t.Run("-tags custom", func(t *testing.T) {
		out, code := runBounded(t, dir, nil, "-tags", "custom", "./...")
		if code == 2 && strings.Contains(out, "flag provided but not defined") {
			t.Skip("this lockvet has no -tags flag")
		}
		check(t, out, code, true)
	})
}

// Nothing is reported in a generated file, not even a directive that silences
// nothing; the handwritten file next to it is analysed as usual, and a lock
// taken in one and released in the other is still a lock.
func TestRobustGenerated(t *testing.T) {
	parallel(t)
	generated := "// Code generated by x. DO NOT EDIT.\n\npackage gen\n\n" + redisImports + naiveLock("Gen", "gen") + `
//lockvet:ignore
func Acquire(ctx context.Context, rdb *redis.Client, key string) bool {
	return rdb.SetNX(ctx, key, "fixed", 0).Val()
}
`
	hand := "package gen\n\n" + redisImports + naiveLock("Hand", "hand") + `
func Both(ctx context.Context, rdb *redis.Client) {
	if Acquire(ctx, rdb, "lock:both") { // ACQUIRE:both
		defer rdb.Del(ctx, "lock:both") // DEL:both
	}
}
`
	dir := robustModule(t, map[string]string{
		"gen/zz_generated.go": generated,
		"gen/hand.go":         hand,
	})
	out, code := runBounded(t, dir, nil, "./...")
	sane(t, out, code)
	if n := findingsIn(out, "zz_generated.go"); n != 0 {
		t.Errorf("%d findings in a generated file:\n%s", n, out)
	}
	wantFinding(t, out, "gen/hand.go", lineOf(t, hand, "SETNX:hand"), constLock)
	wantFinding(t, out, "gen/hand.go", lineOf(t, hand, "DEL:hand"), plainDel)
	wantFinding(t, out, "gen/hand.go", lineOf(t, hand, "ACQUIRE:both"), "lock has no TTL in Acquire")
	wantFinding(t, out, "gen/hand.go", lineOf(t, hand, "DEL:both"), plainDel)
}

// //go:embed of Lua scripts: a compare-and-delete read from a file, a large
// script, a binary file and an embed.FS next to them.
func TestRobustEmbed(t *testing.T) {
	parallel(t)
	src := `package emb

import (
	"context"
	"embed"
	"time"

	"github.com/redis/go-redis/v9"
)

//go:embed unlock.lua
var unlockSrc string

//go:embed big.lua
var bigSrc string

//go:embed blob.bin
var blob []byte

//go:embed scripts
var scripts embed.FS

var unlock = redis.NewScript(unlockSrc)

var big = redis.NewScript(bigSrc)

// Embedded releases through the embedded compare-and-delete.
func Embedded(ctx context.Context, rdb *redis.Client) {
	if rdb.SetNX(ctx, "lock:emb", "owner", time.Second).Val() { // SETNX:emb
		defer unlock.Run(ctx, rdb, []string{"lock:emb"}, "owner") // RUN:emb
	}
}

// Big releases through a large embedded script.
func Big(ctx context.Context, rdb *redis.Client, token string) {
	if rdb.SetNX(ctx, "lock:big", token, time.Second).Val() { // SETNX:big
		defer big.Run(ctx, rdb, []string{"lock:big"}, token) // RUN:big
	}
}

// Plain still releases with DEL.
func Plain(ctx context.Context, rdb *redis.Client) {
	if rdb.SetNX(ctx, "lock:plain", 1, time.Second).Val() { // SETNX:plain
		defer rdb.Del(ctx, "lock:plain") // DEL:plain
	}
	_, _ = scripts.ReadFile("scripts/a.lua")
	_ = len(blob)
}
`
	unlockLua := `if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
else
	return 0
end
`
	var bigLua strings.Builder
	for i := 0; bigLua.Len() < 2<<20; i++ {
		fmt.Fprintf(&bigLua, "-- padding line %d of a large script\nlocal v%d = %d\n", i, i%1000, i)
	}
	bigLua.WriteString(unlockLua)
	blob := make([]byte, 1<<16)
	for i := range blob {
		blob[i] = byte(i * 7)
	}
	dir := robustModule(t, map[string]string{
		"emb/emb.go":          src,
		"emb/unlock.lua":      unlockLua,
		"emb/big.lua":         bigLua.String(),
		"emb/blob.bin":        string(blob),
		"emb/scripts/a.lua":   "return 1\n",
		"emb/scripts/b.lua":   "\xff\xfe not lua",
		"emb/scripts/sub/c.x": strings.Repeat("x", 1<<20),
	})
	out, code := runBounded(t, dir, nil, "./...")
	sane(t, out, code)
	wantFinding(t, out, "emb/emb.go", lineOf(t, src, "SETNX:emb"), constLock)
	wantFinding(t, out, "emb/emb.go", lineOf(t, src, "SETNX:plain"), constLock)
	wantFinding(t, out, "emb/emb.go", lineOf(t, src, "DEL:plain"), plainDel)
	// The embedded script is read as a compare-and-delete: its token is the
	// constant, and the large one releases cleanly.
	wantFinding(t, out, "emb/emb.go", lineOf(t, src, "RUN:emb"), "compare-and-delete with a constant token")
	for _, marker := range []string{"SETNX:big", "RUN:big"} {
		if line := lineOf(t, src, marker); findingAt(out, "emb/emb.go", line, "") {
			t.Errorf("finding at %s (emb.go:%d), want none:\n%s", marker, line, out)
		}
	}
}

// String constants of several megabytes: as Lua passed to Eval, as SQL passed
// to Exec, and concatenated.
func TestRobustHugeStrings(t *testing.T) {
	parallel(t)
	const size = 4 << 20
	var lua, sql, plain strings.Builder
	lua.WriteString("if redis.call(\"get\", KEYS[1]) == ARGV[1] then\n")
	for lua.Len() < size {
		lua.WriteString("  -- " + strings.Repeat("comment ", 25) + "\n")
	}
	lua.WriteString("  return redis.call(\"del\", KEYS[1])\nend\nreturn 0\n")
	sql.WriteString("UPDATE orders SET note = '")
	for sql.Len() < size {
		sql.WriteString(strings.Repeat("n", 100) + " ")
	}
	sql.WriteString("' WHERE id = $1")
	for plain.Len() < size {
		plain.WriteString("é\x00\"\n" + strings.Repeat("p", 500))
	}
	src := `package huge

import (
	"context"
	"database/sql"
	"time"

	"github.com/redis/go-redis/v9"
)

const unlockLua = ` + strconv.Quote(lua.String()) + `

const update = ` + strconv.Quote(sql.String()) + `

const plain = ` + strconv.Quote(plain.String()) + `

// Twice is two huge constants concatenated: one constant of twice the size.
const Twice = plain + plain

var unlock = redis.NewScript(unlockLua + "")

// Eval releases with the huge script passed to Eval directly.
func Eval(ctx context.Context, rdb *redis.Client, db *sql.DB, token string) {
	if rdb.SetNX(ctx, "lock:eval", token, time.Second).Val() {
		defer rdb.Eval(ctx, unlockLua, []string{"lock:eval", "h"}, token)
		db.ExecContext(ctx, update, 1) // EXEC:eval
	}
}

// Script releases through the huge script as a NewScript.
func Script(ctx context.Context, rdb *redis.Client, db *sql.DB, token string) {
	if rdb.SetNX(ctx, "lock:script", token, time.Second).Val() {
		defer unlock.Run(ctx, rdb, []string{"lock:script", "h"}, token)
		db.ExecContext(ctx, update+" AND "+Twice[:10]+" = $2", 1, 2)
		db.ExecContext(ctx, Twice, 1)
	}
}

// Doubled doubles a variable holding a huge constant: 16 GiB of text that
// lockvet must give up reading rather than build.
func Doubled(ctx context.Context, rdb *redis.Client, db *sql.DB, token string) {
	if rdb.SetNX(ctx, "lock:doubled", token, time.Second).Val() {
		q, s := update, unlockLua
` + strings.Repeat("\t\tq, s = q+q, s+s\n", 12) + `		db.ExecContext(ctx, q, 1)
		rdb.Eval(ctx, s, []string{"lock:doubled"}, token)
	}
}

// Plain takes a lock whose key and value are huge constants.
func Plain(ctx context.Context, rdb *redis.Client) {
	if rdb.SetNX(ctx, Twice, plain, time.Second).Val() { // SETNX:plain
		defer rdb.Del(ctx, Twice) // DEL:plain
	}
}
`
	dir := robustModule(t, map[string]string{"huge/huge.go": src})
	out, code := runBounded(t, dir, nil, "./...")
	sane(t, out, code)
	wantFinding(t, out, "huge/huge.go", lineOf(t, src, "SETNX:plain"), constLock)
	wantFinding(t, out, "huge/huge.go", lineOf(t, src, "DEL:plain"), plainDel)
	wantFinding(t, out, "huge/huge.go", lineOf(t, src, "EXEC:eval"), "unfenced write")
}

// Expressions and statements nested thousands deep, each kind in a package of
// its own. (The depths keep the Go compiler, which the driver runs to get
// export data, within seconds: gc is superlinear in if-nesting, and nested
// immediately-called closures make it inline exponentially.)
func TestRobustDeepNesting(t *testing.T) {
	parallel(t)
	const depth, ifs, closures = 5000, 2000, 500
	header := func(pkg string) string {
		return "package " + pkg + "\n\n" + `import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	_ = strconv.Itoa
	_ = time.Second
	_ context.Context
	_ *redis.Client
)
`
	}
	files := map[string]string{}
	var b strings.Builder

	// A parenthesised constant and a parenthesised variable.
	b.WriteString(header("paren"))
	fmt.Fprintf(&b, "\nconst Paren = %s1%s\n", strings.Repeat("(", depth), strings.Repeat(")", depth))
	fmt.Fprintf(&b, "\nfunc ParenVar(n int) int { return %sn%s }\n", strings.Repeat("(", depth), strings.Repeat(")", depth))
	files["paren/paren.go"] = b.String()

	// A left-deep binary expression of variables.
	b.Reset()
	b.WriteString(header("binary"))
	b.WriteString("\nfunc Sum(n int) int { return n")
	for i := 0; i < depth; i++ {
		fmt.Fprintf(&b, " + n*%d", i%7)
	}
	b.WriteString(" }\n")
	files["binary/binary.go"] = b.String()

	// A lock key built by a deep concatenation.
	b.Reset()
	b.WriteString(header("key"))
	b.WriteString(`
// DeepKey locks a key built by a deep concatenation.
func DeepKey(ctx context.Context, rdb *redis.Client, id int) {
	s := strconv.Itoa(id)
	key := "lock:" + s`)
	for i := 0; i < depth; i++ {
		b.WriteString(` + ":" + s`)
	}
	b.WriteString(`
	if rdb.SetNX(ctx, key, 1, time.Second).Val() { // SETNX:key
		defer rdb.Del(ctx, key)
	}
}
`)
	key := b.String()
	files["key/key.go"] = key

	// A lock taken at the bottom of a deep if-nest, released at the top.
	b.Reset()
	b.WriteString(header("ifs"))
	b.WriteString("\n// DeepIf nests ifs deep.\nfunc DeepIf(ctx context.Context, rdb *redis.Client, n int) int {\n")
	b.WriteString("\tdefer rdb.Del(ctx, \"lock:deep\")\n")
	for i := 0; i < ifs; i++ {
		fmt.Fprintf(&b, "if n > %d {\n", i)
	}
	b.WriteString("if !rdb.SetNX(ctx, \"lock:deep\", 1, time.Second).Val() { return 0 } // SETNX:ifs\n")
	for i := 0; i < ifs; i++ {
		b.WriteString("}\n")
	}
	b.WriteString("\treturn n\n}\n")
	ifsSrc := b.String()
	files["ifs/ifs.go"] = ifsSrc

	// Function literals nested deep, the innermost taking a lock.
	b.Reset()
	b.WriteString(header("closures"))
	b.WriteString("\n//go:noinline\nfunc run(f func()) { f() }\n")
	b.WriteString("\n// DeepClosure nests function literals.\nfunc DeepClosure(ctx context.Context, rdb *redis.Client) {\n")
	for i := 0; i < closures; i++ {
		b.WriteString("run(func() {\n")
	}
	b.WriteString("if rdb.SetNX(ctx, \"lock:closure\", 1, time.Second).Val() { defer rdb.Del(ctx, \"lock:closure\") } // SETNX:closure\n")
	for i := 0; i < closures; i++ {
		b.WriteString("})\n")
	}
	b.WriteString("}\n")
	closuresSrc := b.String()
	files["closures/closures.go"] = closuresSrc

	dir := robustModule(t, files)
	out, code := runBounded(t, dir, nil, "./...")
	sane(t, out, code)
	wantFinding(t, out, "key/key.go", lineOf(t, key, "SETNX:key"), constLock)
	wantFinding(t, out, "ifs/ifs.go", lineOf(t, ifsSrc, "SETNX:ifs"), constLock)
	wantFinding(t, out, "closures/closures.go", lineOf(t, closuresSrc, "SETNX:closure"), constLock)
}

// One function of 20,000 statements holding a lock and SQL writes, and one
// with many SETNX/DEL pairs.
func TestRobustLongFunction(t *testing.T) {
	parallel(t)
	const statements = 20000
	var b strings.Builder
	b.WriteString(`package long

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Long is one very long function.
func Long(ctx context.Context, rdb *redis.Client, db *sql.DB, n int) int {
	if !rdb.SetNX(ctx, "lock:long", 1, 10*time.Second).Val() { // SETNX:long
		return 0
	}
	defer rdb.Del(ctx, "lock:long")
`)
	for i := 0; i < statements; i++ {
		switch i % 1000 {
		case 500:
			fmt.Fprintf(&b, "\tdb.ExecContext(ctx, `UPDATE t SET n = $1 WHERE id = %d`, n)\n", i)
		case 999:
			fmt.Fprintf(&b, "\tif n > %d {\n\t\tn -= %d\n\t}\n", i, i)
		default:
			fmt.Fprintf(&b, "\tn += %d\n", i%13)
		}
	}
	b.WriteString("\treturn n\n}\n")
	b.WriteString(`
// Pairs takes and releases many locks in one function.
func Pairs(ctx context.Context, rdb *redis.Client, id int) {
	s := strconv.Itoa(id)
`)
	const pairs = 500
	for i := 0; i < pairs; i++ {
		key := fmt.Sprintf("\"lock:%d:\" + s", i%50) // each key taken ten times
		fmt.Fprintf(&b, "\tif rdb.SetNX(ctx, %s, 1, time.Second).Val() {\n\t\trdb.Del(ctx, %s)\n\t}\n", key, key)
	}
	b.WriteString("}\n")
	b.WriteString(`
// Deferred defers many releases, in a loop, of locks taken in a loop.
func Deferred(ctx context.Context, rdb *redis.Client, keys []string) {
	for _, k := range keys {
		if rdb.SetNX(ctx, k, 1, time.Second).Val() {
			defer rdb.Del(ctx, k)
		}
	}
}
`)
	src := b.String()
	dir := robustModule(t, map[string]string{"long/long.go": src})
	out, code := runBounded(t, dir, nil, "./...")
	sane(t, out, code)
	wantFinding(t, out, "long/long.go", lineOf(t, src, "SETNX:long"), constLock)
	if n := strings.Count(out, constLock); n < pairs {
		t.Errorf("%d constant-value findings, want at least %d (one per SETNX in Pairs)", n, pairs)
	}
}
