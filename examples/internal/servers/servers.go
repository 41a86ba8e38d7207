// Package servers starts throwaway Redis and PostgreSQL servers for a test, on
// free loopback ports in temporary directories, and stops them when the test
// ends, whether it passed or not.
//
// A missing server binary skips the test, unless LOCKVET_INTEGRATION=1 (set by
// CI), where it fails it: CI promises the servers, and a skip there would pass
// without proving anything.
package servers

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Redis starts a redis-server and returns its address.
func Redis(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		missing(t, "redis-server is not installed")
	}
	dir := t.TempDir()
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", port, "--dir", dir,
		"--save", "", "--appendonly", "no")
	start(t, cmd, filepath.Join(dir, "redis.log"), syscall.SIGTERM, func(context.Context) error {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err
	})
	return addr
}

// Postgres initialises a PostgreSQL cluster, starts it, and returns a
// connection string for its postgres database.
func Postgres(t testing.TB) string {
	t.Helper()
	bin := pgBin(t)

	// PostgreSQL refuses to run as root: run it as the postgres user then, in a
	// directory of its own (t.TempDir's parent is closed to other users).
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			missing(t, "running as root, and there is no postgres user to run PostgreSQL as")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	dir, err := os.MkdirTemp("", "lockvet-postgres-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(dir, "data")

	// --no-sync and fsync=off: the cluster lives for one test, durability buys nothing.
	cmd := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync")
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}

	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	dsn := "postgres://postgres@" + addr + "/postgres?sslmode=disable"
	cmd = exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-p", port, "-k", dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off")
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	// SIGINT is PostgreSQL's fast shutdown: it ends the sessions and stops.
	start(t, cmd, filepath.Join(dir, "postgres.log"), syscall.SIGINT, func(ctx context.Context) error {
		conn, err := pgx.Connect(ctx, dsn)
		if err == nil {
			conn.Close(ctx)
		}
		return err
	})
	return dsn
}

// pgBin finds the directory of PostgreSQL's server programs: where initdb is on
// the PATH, or Debian's /usr/lib/postgresql/<version>/bin, the newest version.
func pgBin(t testing.TB) string {
	t.Helper()
	if path, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(path)
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	if len(found) == 0 {
		missing(t, "PostgreSQL is not installed (no initdb on the PATH or in /usr/lib/postgresql/*/bin)")
	}
	version := func(dir string) float64 {
		v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(dir)), 64)
		return v
	}
	return slices.MaxFunc(found, func(a, b string) int { return cmp.Compare(version(a), version(b)) })
}

// missing fails the test where the servers are required, and skips it elsewhere.
func missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("LOCKVET_INTEGRATION") == "1" {
		t.Fatalf("%s; LOCKVET_INTEGRATION=1 requires it", msg)
	}
	t.Skipf("%s; install redis-server and postgresql to run this test (with LOCKVET_INTEGRATION=1 it fails instead)", msg)
}

// freeAddr returns a loopback address whose port nothing listens on now.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// start runs a server until the test ends, sending it stop then, and returns
// once ready reports it serving. Its output goes to logFile, shown if it fails
// to come up.
func start(t testing.TB, cmd *exec.Cmd, logFile string, stop os.Signal, ready func(context.Context) error) {
	t.Helper()
	log, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// Cleanups do not run when the test binary is killed (go test -timeout):
	// the kernel then stops the server.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		log.Close()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(stop)
		<-exited
	})

	name := filepath.Base(cmd.Path)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ready(ctx) != nil {
		select {
		case <-exited:
			out, _ := os.ReadFile(logFile)
			t.Fatalf("%s exited while starting:\n%s", name, out)
		case <-ctx.Done():
			out, _ := os.ReadFile(logFile)
			t.Fatalf("%s did not come up in time:\n%s", name, out)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
