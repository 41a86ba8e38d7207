// Package gen writes a synthetic Go module for lockvet's benchmark: n packages,
// most of them ordinary code (a service type, a model, a few standard-library
// helpers, calls into two to four packages of lower layers), a small share of SQL
// repositories (database/sql Exec) and a small share of packages that take a Redis
// lock (go-redis v9 SetNX/Del, Lua release, a lock wrapper) and write SQL under it,
// some through a repository in another package.
//
// The module grows the way a monorepo does, by adding services: it is made of
// services of Config.Service packages, each a layered import DAG of its own, and
// 20 shared utility packages that each package of a service's bottom layer
// imports one of. So a package imports about as much of the module, directly
// and indirectly, at 10,000 packages as at 1,000, and the cost of analysing it
// should not depend on the module's size. (Version 1 widened the layers of a
// single DAG instead: there a package's transitive imports grew with the module,
// 129 on average at 1,000 packages and 495 at 5,000, and so did every tool's cost
// per package.)
//
// The output depends only on Config: the same Config writes the same files.
package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// ModulePath is the module path of every generated module.
const ModulePath = "benchgen"

// Version changes whenever the generator's output changes, so that a cached
// module written by an older generator is not reused.
const Version = "2"

// Config says what to generate.
type Config struct {
	Packages  int     // number of packages (at least 1)
	LockShare float64 // share of packages that take a Redis lock; 0 means 0.03
	SQLShare  float64 // share of packages that are SQL repositories; 0 means 0.03
	TestShare float64 // share of packages with a _test.go file; 0 means 0.2, <0 means none
	Service   int     // packages per service; 0 means 1000
	Seed      int64   // random seed; the same seed gives the same module

	// GoMod and GoSum are the go.mod and go.sum to start from: a module that
	// requires github.com/redis/go-redis/v9 and github.com/google/uuid (lockvet's
	// examples/go.mod). The module line is replaced by ModulePath.
	GoMod, GoSum []byte
}

// Stats describes a generated module.
type Stats struct {
	Packages, Services, Layers, Lock, SQL, Tests, Files, Lines int
	// Imports is the mean number of the module's packages a package imports,
	// directly or not.
	Imports float64
}

type role int

const (
	plain role = iota
	sqlRepo
	locker
)

type pkg struct {
	index, service, layer int
	role                  role
	deps                  []int // indices of imported generated packages
	std                   []string
	repo                  int // for locker packages: the repository package it uses, or -1
	test                  bool
}

func (p *pkg) name() string { return fmt.Sprintf("p%05d", p.index) }
func (p *pkg) path() string { return ModulePath + "/" + filepath.ToSlash(p.dir()) }
func (p *pkg) dir() string {
	return filepath.Join(fmt.Sprintf("s%02d", p.service), fmt.Sprintf("l%02d", p.layer), p.name())
}

// Layers is the depth of the import DAG of a service of n packages.
func Layers(n int) int {
	l := int(math.Sqrt(float64(n)) / 3)
	return max(4, min(12, l))
}

// Generate writes the module into dir, which must be empty or absent.
func Generate(dir string, cfg Config) (Stats, error) {
	if cfg.Packages < 1 {
		return Stats{}, fmt.Errorf("gen: %d packages", cfg.Packages)
	}
	if cfg.LockShare == 0 {
		cfg.LockShare = 0.03
	}
	if cfg.SQLShare == 0 {
		cfg.SQLShare = 0.03
	}
	if cfg.TestShare == 0 {
		cfg.TestShare = 0.2
	}
	if cfg.Service == 0 {
		cfg.Service = 1000
	}
	gomod, err := moduleFile(cfg.GoMod)
	if err != nil {
		return Stats{}, err
	}
	pkgs := plan(cfg)
	st := Stats{Packages: len(pkgs), Imports: meanImports(pkgs)}
	for _, p := range pkgs {
		st.Services = max(st.Services, p.service)
		st.Layers = max(st.Layers, p.layer+1)
	}
	write := func(rel string, src []byte) error {
		name := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		st.Files++
		st.Lines += bytes.Count(src, []byte("\n"))
		return os.WriteFile(name, src, 0o644)
	}
	if err := write("go.mod", gomod); err != nil {
		return st, err
	}
	if err := write("go.sum", cfg.GoSum); err != nil {
		return st, err
	}
	for _, p := range pkgs {
		files := render(p, pkgs, cfg.Seed)
		names := make([]string, 0, len(files))
		for n := range files {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			src, err := format.Source([]byte(files[n]))
			if err != nil {
				return st, fmt.Errorf("gen: %s/%s: %v\n%s", p.path(), n, err, files[n])
			}
			if err := write(filepath.Join(p.dir(), n), src); err != nil {
				return st, err
			}
		}
		switch p.role {
		case sqlRepo:
			st.SQL++
		case locker:
			st.Lock++
		}
		if p.test {
			st.Tests++
		}
	}
	return st, nil
}

var moduleLine = regexp.MustCompile(`(?m)^module\s+\S+\s*$`)

func moduleFile(src []byte) ([]byte, error) {
	if !moduleLine.Match(src) {
		return nil, fmt.Errorf("gen: GoMod has no module line")
	}
	if !bytes.Contains(src, []byte("github.com/redis/go-redis/v9")) || !bytes.Contains(src, []byte("github.com/google/uuid")) {
		return nil, fmt.Errorf("gen: GoMod must require github.com/redis/go-redis/v9 and github.com/google/uuid")
	}
	return moduleLine.ReplaceAll(src, []byte("module "+ModulePath)), nil
}

// stdPool are the optional standard-library imports a package may use, each with
// the helper that uses it (see helpers).
var stdPool = []string{
	"sort", "strconv", "time", "sync", "bytes", "encoding/json", "math", "unicode",
	"io", "regexp", "net/url", "crypto/sha256", "bufio", "slices", "os", "net/http",
}

// sharedPackages is the number of shared utility packages, the leaves that
// every service's bottom layer imports from.
const sharedPackages = 20

// plan lays the packages out in services and layers and draws their imports
// and roles.
func plan(cfg Config) []*pkg {
	rng := rand.New(rand.NewSource(cfg.Seed))
	pkgs := make([]*pkg, cfg.Packages)
	shared := make([]int, min(sharedPackages, cfg.Packages/10))
	for i := range shared {
		shared[i] = i
		pkgs[i] = &pkg{index: i, repo: -1}
		decorate(cfg, rng, pkgs[i])
	}
	for start := len(shared); start < cfg.Packages; start += cfg.Service {
		service := 1 + (start-len(shared))/cfg.Service
		planService(cfg, rng, pkgs, service, start, min(cfg.Service, cfg.Packages-start), shared)
	}
	return pkgs
}

// planService plans the n packages from index start as a service, whose
// bottom layer imports one of the shared packages each.
func planService(cfg Config, rng *rand.Rand, pkgs []*pkg, service, start, n int, shared []int) {
	layers := Layers(n)
	byLayer := make([][]int, layers)
	for j := range n {
		i, l := start+j, j*layers/n
		pkgs[i] = &pkg{index: i, service: service, layer: l, repo: -1}
		byLayer[l] = append(byLayer[l], i)
	}
	own := pkgs[start : start+n]

	// Roles: SQL repositories in the lower half (above layer 0), lock users in the
	// upper half, spread evenly over the candidates.
	var lower, upper []int
	for _, p := range own {
		switch {
		case p.layer >= 1 && p.layer < layers/2:
			lower = append(lower, p.index)
		case p.layer >= layers/2:
			upper = append(upper, p.index)
		}
	}
	pick := func(cands []int, share float64, r role) []int {
		k := int(math.Round(float64(n) * share))
		if k < 1 && n >= 10 {
			k = 1
		}
		k = min(k, len(cands))
		var out []int
		for j := range k {
			i := cands[j*len(cands)/max(k, 1)+len(cands)/(2*max(k, 1))]
			pkgs[i].role = r
			out = append(out, i)
		}
		return out
	}
	repos := pick(lower, cfg.SQLShare, sqlRepo)
	pick(upper, cfg.LockShare, locker)

	for _, p := range own {
		switch {
		case p.layer > 0:
			k := 2 + rng.Intn(3)
			seen := map[int]bool{}
			for range k {
				l := p.layer - 1
				if rng.Float64() < 0.3 {
					l = rng.Intn(p.layer)
				}
				d := byLayer[l][rng.Intn(len(byLayer[l]))]
				if !seen[d] {
					seen[d] = true
					p.deps = append(p.deps, d)
				}
			}
			sort.Ints(p.deps)
		case len(shared) > 0:
			p.deps = []int{shared[rng.Intn(len(shared))]}
		}
		decorate(cfg, rng, p)
		if p.role == locker && len(repos) > 0 {
			p.repo = repos[rng.Intn(len(repos))]
		}
	}
}

// decorate draws a package's standard-library imports and whether it has tests.
func decorate(cfg Config, rng *rand.Rand, p *pkg) {
	perm := rng.Perm(len(stdPool))
	for _, j := range perm[:2+rng.Intn(4)] {
		p.std = append(p.std, stdPool[j])
	}
	sort.Strings(p.std)
	p.test = cfg.TestShare > 0 && rng.Float64() < cfg.TestShare
}

// meanImports is the mean number of packages each package imports, directly
// or not. Imports go to lower indices, so one pass in index order sees every
// dependency's set before its importers'.
func meanImports(pkgs []*pkg) float64 {
	closure := make([]map[int]bool, len(pkgs))
	total := 0
	for i, p := range pkgs {
		c := map[int]bool{}
		for _, d := range p.deps {
			c[d] = true
			for k := range closure[d] {
				c[k] = true
			}
		}
		closure[i] = c
		total += len(c)
	}
	return float64(total) / float64(max(len(pkgs), 1))
}

// helpers are the functions that use each optional standard-library import.
var helpers = map[string]string{
	"sort": `func sortWords(s string) string {
	w := strings.Fields(s)
	sort.Strings(w)
	return strings.Join(w, " ")
}`,
	"strconv": `func withLen(s string) string {
	return strconv.Itoa(len(s)) + ":" + strconv.Quote(s)
}`,
	"time": `func stamp(s string) string {
	d := time.Duration(len(s)) * time.Millisecond
	return s + "@" + d.String()
}`,
	"sync": `var memo sync.Map

func remember(s string) string {
	if v, ok := memo.Load(s); ok {
		return v.(string)
	}
	memo.Store(s, s)
	return s
}`,
	"bytes": `func lowerBytes(s string) string {
	b := bytes.ToLower([]byte(s))
	return string(bytes.TrimSpace(b))
}`,
	"encoding/json": `func encode(s string) string {
	b, err := json.Marshal(Item{Label: s})
	if err != nil {
		return s
	}
	return string(b)
}`,
	"math": `func norm(s string) string {
	return fmt.Sprintf("%s:%.2f", s, math.Sqrt(float64(len(s))))
}`,
	"unicode": `func upperFirst(s string) string {
	for i, r := range s {
		if unicode.IsLetter(r) {
			return s[:i] + string(unicode.ToUpper(r)) + s[i+len(string(r)):]
		}
	}
	return s
}`,
	"io": `func readAll(s string) string {
	b, err := io.ReadAll(strings.NewReader(s))
	if err != nil {
		return ""
	}
	return string(b)
}`,
	"regexp": `var wordRE = regexp.MustCompile(` + "`[a-z]+`" + `)

func words(s string) string {
	return strings.Join(wordRE.FindAllString(s, -1), ",")
}`,
	"net/url": `func escape(s string) string {
	return url.QueryEscape(s)
}`,
	"crypto/sha256": `func digest(s string) string {
	h := sha256.Sum256([]byte(s))
	return fmt.Sprintf("%x", h[:8])
}`,
	"bufio": `func countLines(s string) string {
	sc := bufio.NewScanner(strings.NewReader(s))
	n := 0
	for sc.Scan() {
		n++
	}
	return fmt.Sprint(s, n)
}`,
	"slices": `func uniq(s string) string {
	w := strings.Fields(s)
	slices.Sort(w)
	return strings.Join(slices.Compact(w), " ")
}`,
	"os": `func fromEnv(s string) string {
	if v := os.Getenv(strings.ToUpper(s)); v != "" {
		return v
	}
	return s
}`,
	"net/http": `func statusLine(s string) string {
	return s + " " + http.StatusText(200+len(s)%8)
}`,
}

var helperName = regexp.MustCompile(`func (\w+)\(s string\) string`)

// render returns the package's files, by name.
func render(p *pkg, pkgs []*pkg, seed int64) map[string]string {
	rng := rand.New(rand.NewSource(seed ^ int64(p.index+1)*0x9e3779b9))
	files := map[string]string{}

	// model.go: a data type, an enum, filters, errors and the std helpers.
	var b strings.Builder
	fmt.Fprintf(&b, "// Package %s is generated benchmark code (service %d, layer %d).\npackage %s\n\nimport (\n", p.name(), p.service, p.layer, p.name())
	imports := []string{"errors", "fmt", "strings"}
	imports = append(imports, p.std...)
	sort.Strings(imports)
	for _, im := range imports {
		fmt.Fprintf(&b, "\t%q\n", im)
	}
	b.WriteString(")\n\n")
	fields := 2 + rng.Intn(5)
	b.WriteString("// Item is one record this package handles.\ntype Item struct {\n\tID int `json:\"id\"`\n\tLabel string `json:\"label\"`\n")
	for f := range fields {
		switch f % 3 {
		case 0:
			fmt.Fprintf(&b, "\tCount%d int `json:\"count%d,omitempty\"`\n", f, f)
		case 1:
			fmt.Fprintf(&b, "\tTags%d []string `json:\"tags%d,omitempty\"`\n", f, f)
		default:
			fmt.Fprintf(&b, "\tWeight%d float64 `json:\"weight%d,omitempty\"`\n", f, f)
		}
	}
	b.WriteString("\tKind Kind `json:\"kind\"`\n}\n\n")
	kinds := 3 + rng.Intn(6)
	b.WriteString("// Kind classifies an Item.\ntype Kind int\n\nconst (\n")
	for k := range kinds {
		if k == 0 {
			fmt.Fprintf(&b, "\tKind%d Kind = iota\n", k)
		} else {
			fmt.Fprintf(&b, "\tKind%d\n", k)
		}
	}
	b.WriteString(")\n\n// String names the kind.\nfunc (k Kind) String() string {\n\tswitch k {\n")
	for k := range kinds {
		fmt.Fprintf(&b, "\tcase Kind%d:\n\t\treturn %q\n", k, fmt.Sprintf("%s-kind-%d", p.name(), k))
	}
	b.WriteString("\t}\n\treturn fmt.Sprintf(\"Kind(%d)\", int(k))\n}\n\n")
	fmt.Fprintf(&b, `// ErrInvalid is returned for items that fail validation.
var ErrInvalid = errors.New(%q)

// ValidationError says which field of an item is wrong.
type ValidationError struct {
	Field string
	ID    int
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("item %%d: bad %%s", e.ID, e.Field)
}

func (e *ValidationError) Unwrap() error { return ErrInvalid }

// Validate checks an item.
func (it Item) Validate() error {
	switch {
	case it.ID <= 0:
		return &ValidationError{Field: "id", ID: it.ID}
	case strings.TrimSpace(it.Label) == "":
		return &ValidationError{Field: "label", ID: it.ID}
	case it.Kind < 0 || it.Kind > Kind%d:
		return &ValidationError{Field: "kind", ID: it.ID}
	}
	return nil
}

// Filter returns the items pred accepts.
func Filter(items []Item, pred func(Item) bool) []Item {
	var out []Item
	for _, it := range items {
		if pred(it) {
			out = append(out, it)
		}
	}
	return out
}

// Partition splits items by kind.
func Partition(items []Item) map[Kind][]Item {
	m := make(map[Kind][]Item, %d)
	for _, it := range items {
		m[it.Kind] = append(m[it.Kind], it)
	}
	return m
}

`, p.name()+": invalid item", kinds-1, kinds)
	var helperNames []string
	for _, im := range p.std {
		h := helpers[im]
		b.WriteString(h)
		b.WriteString("\n\n")
		helperNames = append(helperNames, helperName.FindStringSubmatch(h)[1])
	}
	files["model.go"] = b.String()

	// service.go: the Service, which uses the packages this one imports.
	b.Reset()
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n\t\"strings\"\n", p.name())
	if len(p.deps) > 0 {
		b.WriteString("\n")
	}
	for _, d := range p.deps {
		fmt.Fprintf(&b, "\t%q\n", pkgs[d].path())
	}
	b.WriteString(")\n\n")
	fmt.Fprintf(&b, "// Name identifies this package.\nconst Name = %q\n\n", p.name())
	b.WriteString("// Processor is anything that transforms a string.\ntype Processor interface {\n\tProcess(ctx context.Context, in string) (string, error)\n}\n\n")
	b.WriteString("var _ Processor = (*Service)(nil)\n\n")
	b.WriteString("// Service processes items.\ntype Service struct {\n\tname  string\n\titems []Item\n\tcount int\n")
	for j, d := range p.deps {
		fmt.Fprintf(&b, "\td%d *%s.Service\n", j, pkgs[d].name())
	}
	b.WriteString("}\n\n// New returns a Service.\nfunc New() *Service {\n\treturn &Service{\n\t\tname: Name,\n")
	for j, d := range p.deps {
		fmt.Fprintf(&b, "\t\td%d: %s.New(),\n", j, pkgs[d].name())
	}
	b.WriteString("\t}\n}\n\n")
	b.WriteString(`// Add validates an item and keeps it.
func (s *Service) Add(it Item) error {
	if err := it.Validate(); err != nil {
		return fmt.Errorf("%s: add: %w", s.name, err)
	}
	s.items = append(s.items, it)
	return nil
}

// Score is a number derived from the items held.
func (s *Service) Score() int {
	n := len(s.name)
	for _, it := range s.items {
		n += it.ID + int(it.Kind)
	}
	return n + s.count
}

// Process transforms in through this package's helpers and its dependencies.
func (s *Service) Process(ctx context.Context, in string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("%s: %w", s.name, err)
	}
	out := strings.TrimSpace(in)
`)
	for _, h := range helperNames {
		fmt.Fprintf(&b, "\tout = %s(out)\n", h)
	}
	for j, d := range p.deps {
		fmt.Fprintf(&b, "\tif v, err := s.d%d.Process(ctx, out); err != nil {\n\t\treturn \"\", fmt.Errorf(\"%%s via %%s: %%w\", s.name, %s.Name, err)\n\t} else {\n\t\tout = v\n\t}\n", j, pkgs[d].name())
		fmt.Fprintf(&b, "\ts.count += s.d%d.Score()\n", j)
	}
	b.WriteString(`	return out, nil
}

// Batch processes every input and joins the errors.
func (s *Service) Batch(ctx context.Context, ins []string) ([]string, error) {
	var errs []error
	outs := make([]string, 0, len(ins))
	for _, in := range ins {
		out, err := s.Process(ctx, in)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		outs = append(outs, out)
	}
	return outs, errors.Join(errs...)
}
`)
	files["service.go"] = b.String()

	switch p.role {
	case sqlRepo:
		files["repo.go"] = repoFile(p)
	case locker:
		files["lock.go"] = lockFile(p, pkgs)
	}
	if p.test {
		files["service_test.go"] = testFile(p, helperNames)
	}
	return files
}

func repoFile(p *pkg) string {
	return fmt.Sprintf(`package %[1]s

import (
	"context"
	"database/sql"
)

// Repo stores orders.
type Repo struct{ db *sql.DB }

// NewRepo returns a Repo on db.
func NewRepo(db *sql.DB) *Repo { return &Repo{db: db} }

// MarkPaid marks an order paid.
func (r *Repo) MarkPaid(ctx context.Context, id int64) error {
	_, err := r.db.ExecContext(ctx, `+"`UPDATE orders SET status = 'PAID' WHERE id = $1`"+`, id)
	return err
}

// Insert adds an item row.
func (r *Repo) Insert(ctx context.Context, id int64, label string) error {
	_, err := r.db.ExecContext(ctx, `+"`INSERT INTO items_%[1]s (id, label) VALUES ($1, $2)`"+`, id, label)
	return err
}

// Count counts the item rows.
func (r *Repo) Count(ctx context.Context) (int, error) {
	var n int
	err := r.db.QueryRowContext(ctx, `+"`SELECT count(*) FROM items_%[1]s`"+`).Scan(&n)
	return n, err
}
`, p.name())
}

// lockFile writes one of three lock shapes, by the package's index: a naive
// lock (constant value, plain DEL, unconditional UPDATE), an owner-checked one
// (token, Lua compare-and-delete, conditional UPDATE with RowsAffected, a publish),
// and a wrapper type whose TryLock/Unlock another function uses around a
// repository call.
func lockFile(p *pkg, pkgs []*pkg) string {
	var repoImport, repoCall, repoArg string
	if p.repo >= 0 {
		r := pkgs[p.repo]
		repoImport = fmt.Sprintf("\n\trepo %q\n", r.path())
		repoCall = "\treturn repo.NewRepo(db).MarkPaid(ctx, id)\n"
		repoArg = ", r *repo.Repo"
	} else {
		repoCall = "\treturn nil\n"
	}
	head := fmt.Sprintf(`package %s

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
%s)

// ErrBusy means another worker holds the lock.
var ErrBusy = errors.New("busy")

var _ = uuid.NewString
var _ sql.Result

`, p.name(), repoImport)
	switch p.index % 3 {
	case 0:
		return head + fmt.Sprintf(`// CompleteJob runs job id once across workers.
func CompleteJob(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key := "lock:%s:" + strconv.FormatInt(id, 10)
	if !rdb.SetNX(ctx, key, 1, 10*time.Second).Val() {
		return ErrBusy
	}
	defer rdb.Del(ctx, key)
	if _, err := db.ExecContext(ctx, `+"`UPDATE jobs SET status = 'DONE' WHERE id = $1`"+`, id); err != nil {
		return err
	}
%s}
`, p.name(), repoCall)
	case 1:
		insert := ""
		if p.repo >= 0 {
			insert = "\tif err := repo.NewRepo(db).Insert(ctx, id, \"settled\"); err != nil {\n\t\treturn err\n\t}\n"
		}
		return head + fmt.Sprintf(`// ErrStale means the order was settled by someone else.
var ErrStale = errors.New("stale")

var release = redis.NewScript(`+"`"+`if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
end
return 0`+"`"+`)

// Settle settles order id once.
func Settle(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	key := "lock:%s:" + strconv.FormatInt(id, 10)
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer release.Run(ctx, rdb, []string{key}, token)
	res, err := db.ExecContext(ctx, `+"`UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`"+`, id)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n != 1 {
		return ErrStale
	}
%s	return rdb.Publish(ctx, "settled", id).Err()
}
`, p.name(), insert)
	default:
		body := "\treturn nil\n"
		if p.repo >= 0 {
			body = "\treturn r.MarkPaid(ctx, id)\n"
		}
		return head + fmt.Sprintf(`// Locker takes and releases Redis locks.
type Locker struct{ rdb *redis.Client }

// TryLock takes key for token.
func (l *Locker) TryLock(ctx context.Context, key, token string) (bool, error) {
	return l.rdb.SetNX(ctx, key, token, 15*time.Second).Result()
}

// Unlock releases key.
func (l *Locker) Unlock(ctx context.Context, key string) error {
	return l.rdb.Del(ctx, key).Err()
}

// Reconcile reconciles order id under a lock.
func Reconcile(ctx context.Context, l *Locker%s, id int64) error {
	key := "lock:%s:" + strconv.FormatInt(id, 10)
	ok, err := l.TryLock(ctx, key, uuid.NewString())
	if err != nil || !ok {
		return ErrBusy
	}
	defer l.Unlock(ctx, key)
%s}
`, repoArg, p.name(), body)
	}
}

func testFile(p *pkg, helperNames []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport \"testing\"\n\n", p.name())
	b.WriteString(`func TestValidate(t *testing.T) {
	for _, it := range []Item{{ID: 0, Label: "x"}, {ID: 1, Label: " "}, {ID: 1, Label: "x", Kind: -1}} {
		if err := it.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil", it)
		}
	}
	if err := (Item{ID: 1, Label: "x"}).Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestHelpers(t *testing.T) {
`)
	for _, h := range helperNames {
		fmt.Fprintf(&b, "\tif got := %s(\"a b\"); got == \"\" {\n\t\tt.Errorf(\"%s: empty\")\n\t}\n", h, h)
	}
	b.WriteString("}\n")
	return b.String()
}
