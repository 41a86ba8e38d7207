package examples_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/redis/go-redis/v9"

	"github.com/lockvet/lockvet/examples/conditional"
	"github.com/lockvet/lockvet/examples/fenced"
	"github.com/lockvet/lockvet/examples/forupdate"
	"github.com/lockvet/lockvet/examples/internal/servers"
	"github.com/lockvet/lockvet/examples/naive"
	"github.com/lockvet/lockvet/examples/ownerchecked"
	"github.com/lockvet/lockvet/examples/separateincr"
	"github.com/lockvet/lockvet/examples/uniquetask"
)

// points is what completing an order credits the customer.
const points = 10

// A worker is one process running an example: its own connections, and what
// the carrier tells it (fenced and separateincr ask the carrier).
type worker struct {
	rdb     *redis.Client
	db      *sql.DB
	carrier carrier
}

// carrier answers every question about a parcel with one status; for the
// worker that pauses, it pauses once it has answered, as a slow reply would.
type carrier struct {
	status string
	pause  *pause
}

func (c carrier) Status(ctx context.Context, _ int64) (string, error) {
	if c.pause != nil {
		c.pause.here(ctx)
	}
	return c.status, nil
}

// An example is one of the packages, as the test drives it.
type example struct {
	dir    string // the package directory, where lockvet's findings land
	leases int    // Redis lock leases A holds when it pauses; they run out then
	run    func(ctx context.Context, w worker, orderID int64) error
	// check reads what the two workers left in the database: ok when exactly
	// one worker's write took effect.
	check func(ctx context.Context, db *sql.DB, orderID int64) (ok bool, what string)
	// loses is the error the example returns to the worker whose write did not
	// take effect; nil where the example cannot tell.
	loses error
}

var examples = []example{{
	dir: "naive", leases: 1, check: credited,
	run: func(ctx context.Context, w worker, id int64) error {
		return naive.CompleteOrder(ctx, w.rdb, w.db, id, points)
	},
}, {
	dir: "ownerchecked", leases: 1, check: credited,
	run: func(ctx context.Context, w worker, id int64) error {
		return ownerchecked.CompleteOrder(ctx, w.rdb, w.db, id, points)
	},
}, {
	dir: "fenced", leases: 1, check: synced, loses: fenced.ErrStale,
	run: func(ctx context.Context, w worker, id int64) error {
		return fenced.SyncStatus(ctx, w.rdb, w.db, w.carrier, id)
	},
}, {
	dir: "separateincr", leases: 1, check: synced,
	run: func(ctx context.Context, w worker, id int64) error {
		return separateincr.SyncStatus(ctx, w.rdb, w.db, w.carrier, id)
	},
}, {
	dir: "conditional", check: credited, loses: conditional.ErrAlreadyPaid,
	run: func(ctx context.Context, w worker, id int64) error {
		return conditional.CompleteOrder(ctx, w.db, id, points)
	},
}, {
	dir: "forupdate", check: credited, loses: forupdate.ErrAlreadyPaid,
	run: func(ctx context.Context, w worker, id int64) error {
		return forupdate.CompleteOrder(ctx, w.db, id, points)
	},
}, {
	dir: "uniquetask", check: credited, loses: uniquetask.ErrAlreadyPaid,
	run: func(ctx context.Context, w worker, id int64) error {
		return uniquetask.CompleteOrder(ctx, w.db, id, points)
	},
}}

// credited checks that the customer got the order's points once.
func credited(ctx context.Context, db *sql.DB, orderID int64) (bool, string) {
	var got int
	if err := db.QueryRowContext(ctx, `SELECT points FROM accounts
		WHERE id = (SELECT customer_id FROM orders WHERE id = $1)`, orderID).Scan(&got); err != nil {
		return false, err.Error()
	}
	return got == points, fmt.Sprintf("points credited %d time(s)", got/points)
}

// synced checks that the order kept B's reading of the carrier, the newer one.
func synced(ctx context.Context, db *sql.DB, orderID int64) (bool, string) {
	var status string
	if err := db.QueryRowContext(ctx, `SELECT status FROM orders WHERE id = $1`, orderID).Scan(&status); err != nil {
		return false, err.Error()
	}
	return status == "DELIVERED", "order status " + status
}

// TestExamples replays the article's timeline against each example on real
// servers, and checks that lockvet flags an example exactly when the replay
// corrupted its data.
func TestExamples(t *testing.T) {
	l := lab{redisAddr: servers.Redis(t), dsn: servers.Postgres(t)}
	findings := lockvet(t)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l.rdb, l.db = redisClient(t, l.redisAddr), openDB(t, l.dsn, nil)
	schema, err := os.ReadFile("schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.db.ExecContext(ctx, string(schema)); err != nil {
		t.Fatal(err)
	}

	for i, ex := range examples {
		t.Run(ex.dir, func(t *testing.T) {
			id := int64(i + 1)
			if _, err := l.db.ExecContext(ctx, `INSERT INTO accounts (id) VALUES ($1)`, id); err != nil {
				t.Fatal(err)
			}
			if _, err := l.db.ExecContext(ctx, `INSERT INTO orders (id, customer_id) VALUES ($1, $1)`, id); err != nil {
				t.Fatal(err)
			}
			errA, errB := l.replay(ctx, t, ex, id)
			ok, what := ex.check(ctx, l.db, id)
			t.Logf("A: %v; B: %v; %s; lockvet: %v", errA, errB, what, findings[ex.dir])

			if ex.loses == nil {
				if ok || errA != nil || errB != nil {
					t.Errorf("want both workers told they won, and the data wrong; A: %v, B: %v, %s", errA, errB, what)
				}
			} else {
				if !ok {
					t.Errorf("data went wrong: %s", what)
				}
				lost, won := errA, errB
				if errA == nil {
					lost, won = errB, errA
				}
				if won != nil || !errors.Is(lost, ex.loses) {
					t.Errorf("want one worker to win and the other told %q; A: %v, B: %v", ex.loses, errA, errB)
				}
			}

			switch flagged := slices.Contains(findings[ex.dir], "unfencedwrite"); {
			case !ok && !flagged:
				t.Errorf("lockvet missed it: %s, and no unfencedwrite finding in %s/", what, ex.dir)
			case ok && len(findings[ex.dir]) > 0:
				t.Errorf("lockvet reported %v, yet the data came out right", findings[ex.dir])
			}
		})
	}
	for dir, codes := range findings {
		if !slices.ContainsFunc(examples, func(ex example) bool { return ex.dir == dir }) {
			t.Errorf("lockvet reported %v in %s, which is not an example", codes, dir)
		}
	}
}

// lab is the servers, and the test's own connections to them.
type lab struct {
	redisAddr, dsn string
	rdb            *redis.Client
	db             *sql.DB
}

// replay runs the timeline: worker A starts and stops just before its first
// write reaches the database, as in a GC pause; its lease runs out; worker B
// runs; A resumes. It returns what the example returned to A and to B.
func (l lab) replay(ctx context.Context, t *testing.T, ex example, id int64) (error, error) {
	if err := l.rdb.FlushAll(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	p := &pause{reached: make(chan struct{}), resume: make(chan struct{})}
	a := worker{rdb: redisClient(t, l.redisAddr), db: openDB(t, l.dsn, p), carrier: carrier{"SHIPPED", p}}
	// B asks the carrier after A did, and hears the newer status.
	b := worker{rdb: redisClient(t, l.redisAddr), db: openDB(t, l.dsn, nil), carrier: carrier{status: "DELIVERED"}}
	doneA, doneB := make(chan error, 1), make(chan error, 1)

	go func() { doneA <- ex.run(ctx, a, id) }()
	select {
	case <-p.reached:
	case err := <-doneA:
		t.Fatalf("A returned without writing: %v", err)
	}
	if n := l.expireLeases(ctx, t); n != ex.leases {
		t.Fatalf("A held %d lock leases when it paused, want %d", n, ex.leases)
	}

	go func() { doneB <- ex.run(ctx, b, id) }()
	// B either finishes, or waits for a row lock A holds (forupdate): both are
	// as far as B gets before A resumes.
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case errB := <-doneB:
			close(p.resume)
			return <-doneA, errB
		case <-tick.C:
			var waiting bool
			if err := l.db.QueryRowContext(ctx, `SELECT EXISTS (
				SELECT FROM pg_stat_activity WHERE wait_event_type = 'Lock')`).Scan(&waiting); err != nil {
				t.Fatal(err)
			}
			if waiting {
				close(p.resume)
				return <-doneA, <-doneB
			}
		}
	}
}

// expireLeases makes every lock lease in Redis run out now, as it would during
// a long pause, and waits until Redis reports them gone. Keys without a TTL
// (fenced's token counter) are not leases and stay. It returns how many there
// were.
func (l lab) expireLeases(ctx context.Context, t *testing.T) int {
	keys, err := l.rdb.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, key := range keys {
		if l.rdb.PTTL(ctx, key).Val() <= 0 {
			continue
		}
		n++
		if err := l.rdb.PExpire(ctx, key, time.Millisecond).Err(); err != nil {
			t.Fatal(err)
		}
		for l.rdb.Exists(ctx, key).Val() != 0 {
			time.Sleep(time.Millisecond)
		}
	}
	return n
}

// pause stops a worker once, until resume is closed: just after the carrier
// answers it, or just before its first write is sent to the database,
// whichever comes first.
type pause struct {
	once    sync.Once
	reached chan struct{}
	resume  chan struct{}
}

func (p *pause) here(ctx context.Context) {
	p.once.Do(func() {
		close(p.reached)
		select {
		case <-p.resume:
		case <-ctx.Done():
		}
	})
}

func (p *pause) TraceQueryStart(ctx context.Context, _ *pgx.Conn, q pgx.TraceQueryStartData) context.Context {
	verb, _, _ := strings.Cut(strings.TrimSpace(q.SQL), " ")
	if verb := strings.ToUpper(verb); verb == "UPDATE" || verb == "INSERT" {
		p.here(ctx)
	}
	return ctx
}

func (*pause) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func openDB(t *testing.T, dsn string, tracer pgx.QueryTracer) *sql.DB {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Tracer = tracer
	db := stdlib.OpenDB(*cfg)
	t.Cleanup(func() { db.Close() })
	return db
}

func redisClient(t *testing.T, addr string) *redis.Client {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// lockvet builds lockvet from the parent module, runs it over the examples as
// `make demo` does, and returns the checks it reported by top-level directory.
func lockvet(t *testing.T) map[string][]string {
	bin := filepath.Join(t.TempDir(), "lockvet")
	build := exec.Command("go", "build", "-o", bin, "./cmd/lockvet")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building lockvet: %v\n%s", err, out)
	}

	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "-f", "json", "./...")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var exit *exec.ExitError
	if runErr != nil && !(errors.As(runErr, &exit) && exit.ExitCode() == 3) {
		t.Fatalf("lockvet -f json ./...: %v\n%s", runErr, stderr.Bytes())
	}

	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	findings := map[string][]string{}
	for dec := json.NewDecoder(&stdout); dec.More(); {
		var f struct {
			Code     string
			Location struct{ File string }
		}
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("lockvet's output: %v\n%s", err, stdout.Bytes())
		}
		rel, err := filepath.Rel(wd, f.Location.File)
		if err != nil {
			t.Fatal(err)
		}
		dir, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		findings[dir] = append(findings[dir], f.Code)
	}
	if (runErr != nil) != (len(findings) > 0) {
		t.Errorf("lockvet exited with %v and reported %d findings: exit status 3 goes with findings", runErr, len(findings))
	}
	return findings
}
