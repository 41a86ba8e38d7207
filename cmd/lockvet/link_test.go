package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/analyzers"
)

// A service written with dependency injection: the service package declares
// the interfaces it needs, the implementations live in packages it does not
// import, and main wires them.
var linked = map[string]string{
	"redislock/redislock.go": `// Package redislock is a lock over a store it is given: two interfaces
// stand between the service and go-redis, and the implementations name
// their parameters differently from the interfaces.
package redislock

import (
	"context"
	"time"
)

type Store interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
	Del(ctx context.Context, key string) error
}

type Locker struct{ store Store }

func New(s Store) *Locker { return &Locker{store: s} }

func (l *Locker) TryLock(ctx context.Context, name string) (bool, error) {
	return l.store.SetNX(ctx, name, "1", 10*time.Second)
}

func (l *Locker) Unlock(ctx context.Context, name string) error {
	return l.store.Del(ctx, name)
}
`,
	// An external test package calls through an interface too: the link
	// step lists it by the package it tests, not by its own path.
	"redislock/redislock_test.go": `package redislock_test

import (
	"context"
	"testing"

	"example.com/linked/redislock"
)

func TestStore(t *testing.T) {
	var s redislock.Store
	if s != nil {
		_, _ = s.SetNX(context.Background(), "k", "v", 0)
	}
}
`,
	"rediscache/rediscache.go": `package rediscache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Cache struct{ rdb *redis.Client }

func New(rdb *redis.Client) *Cache { return &Cache{rdb: rdb} }

func (c *Cache) SetNX(ctx context.Context, k string, v any, exp time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, k, v, exp).Result()
}

func (c *Cache) Del(ctx context.Context, k string) error {
	return c.rdb.Del(ctx, k).Err()
}
`,
	"locks/locks.go": `// Package locks is a helper the service calls directly: its own problems
// are reported in it, once, not at each call.
package locks

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func TryLock(ctx context.Context, rdb *redis.Client, key string) (bool, error) {
	return rdb.SetNX(ctx, key, "locked", time.Minute).Result()
}

func Unlock(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Del(ctx, key).Err()
}
`,
	// Package kv forwards commands to go-redis under their own names: a
	// forwarder decides nothing about a lock, so what the service does with
	// it is reported at the service's call.
	"kv/kv.go": `package kv

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Client struct{ rdb *redis.Client }

func (c *Client) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (c *Client) Del(ctx context.Context, keys ...string) error {
	return c.rdb.Del(ctx, keys...).Err()
}
`,
	// Package kvlock is a helper the service reaches only through wrappers
	// of its own: its problems are reported in it all the same.
	"kvlock/kvlock.go": `package kvlock

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func Acquire(ctx context.Context, rdb *redis.Client, key string) error {
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return context.DeadlineExceeded
	}
	return nil
}

func Release(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Del(ctx, key).Err()
}
`,
	// Package dao wraps the injected lock again, and package hooks, which
	// never calls an interface itself, takes it through dao: hooks is
	// analysed again with dao's new facts.
	"dao/dao.go": `package dao

import (
	"context"

	"example.com/linked/service"
)

type Dao struct{ Locks service.Locker }

func (d *Dao) LockEvent(ctx context.Context, id string) (bool, error) {
	return d.Locks.TryLock(ctx, "lock:event:"+id)
}

func (d *Dao) UnlockEvent(ctx context.Context, id string) error {
	return d.Locks.Unlock(ctx, "lock:event:"+id)
}
`,
	"hooks/hooks.go": `package hooks

import (
	"context"

	"example.com/linked/dao"
)

func Dequeue(ctx context.Context, d *dao.Dao, id string) error {
	b, err := d.LockEvent(ctx, id)
	if err != nil {
		return err
	}
	defer d.UnlockEvent(ctx, id)
	if !b {
		return nil
	}
	return nil
}
`,
	"memlock/memlock.go": `// Package memlock is an in-process stand-in with the same methods and no
// Redis: it has no facts, so it does not make the interface ambiguous.
package memlock

import (
	"context"
	"sync"
)

type Locker struct {
	mu   sync.Mutex
	held map[string]bool
}

func (l *Locker) TryLock(ctx context.Context, key string) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held[key] {
		return false, nil
	}
	l.held[key] = true
	return true, nil
}

func (l *Locker) Unlock(ctx context.Context, key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.held, key)
	return nil
}
`,
	"postgres/orders.go": `package postgres

import (
	"context"
	"database/sql"
)

type Orders struct{ DB *sql.DB }

func (o *Orders) Credit(ctx context.Context, id int64, points int) error {
	_, err := o.DB.ExecContext(ctx, "UPDATE accounts SET points = points + $1 WHERE id = $2", points, id)
	return err
}
`,
	// A mock as moq writes it, beside the interface: it implements Orders
	// too, but no call in the program reaches it, so the write in postgres
	// stays the one.
	"service/orders_moq.go": `package service

import "context"

type OrdersMock struct {
	CreditFunc func(ctx context.Context, id int64, points int) error
	calls      struct{ Credit []int64 }
}

func (m *OrdersMock) Credit(ctx context.Context, id int64, points int) error {
	m.calls.Credit = append(m.calls.Credit, id)
	return m.CreditFunc(ctx, id, points)
}
`,
	"service/service.go": `package service

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/linked/kv"
	"example.com/linked/kvlock"
	"example.com/linked/locks"
)

func hold(ctx context.Context, rdb *redis.Client, name string) error {
	return kvlock.Acquire(ctx, rdb, strings.Join([]string{"lock", "hold", name}, ":"))
}

func unhold(ctx context.Context, rdb *redis.Client, name string) error {
	return kvlock.Release(ctx, rdb, strings.Join([]string{"lock", "hold", name}, ":"))
}

func Hold(ctx context.Context, rdb *redis.Client, name string) error {
	if err := hold(ctx, rdb, name); err != nil {
		return err
	}
	defer unhold(ctx, rdb, name)
	return rdb.Incr(ctx, "holds").Err()
}

func Settle(ctx context.Context, c *kv.Client, id string, token string) error {
	key := "lock:settle:" + id
	ok, err := c.SetNX(ctx, key, token, time.Minute)
	if err != nil || !ok {
		return err
	}
	defer c.Del(ctx, key)
	return c.Del(ctx, "cache:settle:"+id)
}

// Locker embeds the interface that declares Unlock: a call of it is
// looked up by Unlocker.
type Locker interface {
	TryLock(ctx context.Context, key string) (bool, error)
	Unlocker
}

type Unlocker interface {
	Unlock(ctx context.Context, key string) error
}

type Orders interface {
	Credit(ctx context.Context, id int64, points int) error
}

type Service struct {
	Locks  Locker
	Orders Orders
}

func (s *Service) Sweep(ctx context.Context, rdb *redis.Client) error {
	for _, key := range []string{"lock:sweep:a", "lock:sweep:b"} {
		ok, err := locks.TryLock(ctx, rdb, key)
		if err != nil || !ok {
			return err
		}
		locks.Unlock(ctx, rdb, key)
	}
	return nil
}

func (s *Service) Pay(ctx context.Context, id int64) error {
	key := "lock:order:" + strconv.FormatInt(id, 10)
	ok, err := s.Locks.TryLock(ctx, key)
	if err != nil || !ok {
		return err
	}
	defer s.Locks.Unlock(ctx, key)
	return s.Orders.Credit(ctx, id, 10)
}

// acquire and release wrap the injected lock again: its problems are the
// lock's, reported in redislock, not a second time here.
func (s *Service) acquire(ctx context.Context, key string) (bool, error) {
	return s.Locks.TryLock(ctx, key)
}

func (s *Service) release(ctx context.Context, key string) error {
	return s.Locks.Unlock(ctx, key)
}

func (s *Service) Grant(ctx context.Context, rdb *redis.Client, id int64) error {
	key := "lock:grant:" + strconv.FormatInt(id, 10)
	ok, err := s.acquire(ctx, key)
	if err != nil || !ok {
		return err
	}
	defer s.release(ctx, key)
	return rdb.Incr(ctx, "grants").Err()
}
`,
	// Package leases returns a lease the caller releases through an
	// interface of one method, and Job has that method too, as every lease
	// does: the lease Acquire converts to Lease is the one Release reaches.
	"leases/leases.go": `package leases

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Lease interface {
	Release(ctx context.Context) (bool, error)
}

const unlock = ` + "`" + `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end` + "`" + `

type Store struct{ rdb *redis.Client }

type lease struct {
	rdb        *redis.Client
	key, token string
}

func (s *Store) Acquire(ctx context.Context, key string) (Lease, bool, error) {
	l := &lease{rdb: s.rdb, key: key, token: uuid.NewString()}
	ok, err := s.rdb.SetNX(ctx, key, l.token, 30*time.Second).Result()
	if err != nil || !ok {
		return nil, false, err
	}
	return l, true, nil
}

func (l *lease) Release(ctx context.Context) (bool, error) {
	n, err := l.rdb.Eval(ctx, unlock, []string{l.key}, l.token).Int()
	return n == 1, err
}

type Job struct {
	client   *redis.Client
	name, id string
}

func (j *Job) Release(ctx context.Context) (bool, error) {
	n, err := j.client.Eval(ctx, unlock, []string{"job:" + j.name}, j.id).Int()
	return n == 1, err
}
`,
	"profiles/profiles.go": `package profiles

import (
	"context"
	"database/sql"
	"strconv"

	"example.com/linked/leases"
)

type Locks interface {
	Acquire(ctx context.Context, key string) (leases.Lease, bool, error)
}

type Service struct {
	Locks Locks
	DB    *sql.DB
}

func (s *Service) Rebuild(ctx context.Context, id int64, score int) error {
	l, ok, err := s.Locks.Acquire(ctx, "lock:profile:"+strconv.FormatInt(id, 10))
	if err != nil || !ok {
		return err
	}
	defer l.Release(ctx)
	_, err = s.DB.ExecContext(ctx, "UPDATE profiles SET score = $1 WHERE id = $2", score, id)
	return err
}
`,
	"main.go": `package main

import (
	"context"
	"database/sql"

	"github.com/redis/go-redis/v9"

	"example.com/linked/memlock"
	"example.com/linked/postgres"
	"example.com/linked/rediscache"
	"example.com/linked/redislock"
	"example.com/linked/service"
)

func main() {
	rdb := redis.NewClient(&redis.Options{})
	var locks service.Locker = redislock.New(rediscache.New(rdb))
	if rdb == nil {
		locks = &memlock.Locker{}
	}
	s := &service.Service{Locks: locks, Orders: &postgres.Orders{DB: (*sql.DB)(nil)}}
	s.Pay(context.Background(), 1)
}
`,
}

// The findings the link step finds, and only them: the wrappers' own
// problems inside the wrappers, where the service pairs them into a lock
// through an interface; a forwarder's at the call that chose it; the
// region's in the service.
var linkedFindings = []string{
	"redislock/redislock.go:21:22: lock value is a constant in SetNX",
	"redislock/redislock.go:25:20: lock released in rediscache.Cache.Del with plain DEL",
	"locks/locks.go:13:18: lock value is a constant",
	"hooks/hooks.go:14:21: release (UnlockEvent) deferred before the lock is checked",
	"kvlock/kvlock.go:11:22: lock value is a constant",
	"kvlock/kvlock.go:22:16: lock released with plain DEL",
	"locks/locks.go:17:16: lock released with plain DEL",
	"service/service.go:38:13: lock released in kv.Client.Del with plain DEL",
	"service/service.go:80:24: unfenced write (in Credit) under a TTL lock",
	"service/service.go:75:28: lock only guards database work",
	"profiles/profiles.go:21:31: lock only guards database work",
	"profiles/profiles.go:26:27: unfenced write under a TTL lock",
}

func linkedModule(t *testing.T) string {
	dir := t.TempDir()
	examples := filepath.Join("..", "..", "examples")
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(examples, name))
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.Replace(data, []byte("module github.com/lockvet/lockvet/examples"), []byte("module example.com/linked"), 1)
		guardedWrite(t, filepath.Join(dir, name), data)
	}
	for name, src := range linked {
		guardedWrite(t, filepath.Join(dir, name), []byte(src))
	}
	return dir
}

// TestLink checks that the command follows calls through interfaces to the
// implementations the program wires in, and that go vet, which sees one
// package at a time, does not.
func TestLink(t *testing.T) {
	tool := filepath.Join(t.TempDir(), "lockvet")
	if out, err := exec.Command("go", "build", "-o", tool, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := linkedModule(t)
	t.Chdir(dir)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for run := range 2 { // the second run reads both passes from the cache
		o := &options{format: "text", tests: true, patterns: []string{"./..."}, checks: analyzers.All}
		var stdout, stderr bytes.Buffer
		if code := execute(o, &stdout, &stderr); code != exitFindings {
			t.Fatalf("run %d: exit %d, want %d\n%s%s", run, code, exitFindings, stdout.String(), stderr.String())
		}
		for _, want := range linkedFindings {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("run %d: missing %q in:\n%s", run, want, stdout.String())
			}
		}
		if n := strings.Count(stdout.String(), ".go:"); n != len(linkedFindings) {
			t.Errorf("run %d: %d findings, want %d:\n%s", run, n, len(linkedFindings), stdout.String())
		}
	}

	vet := exec.Command("go", "vet", "-vettool="+tool, "./...")
	out, _ := vet.CombinedOutput()
	if strings.Contains(string(out), "redislock.go") || strings.Contains(string(out), "(in Credit)") {
		t.Errorf("go vet sees through interfaces it cannot link:\n%s", out)
	}
	// What facts alone prove, go vet reports at the calls.
	if !strings.Contains(string(out), "service.go:64:27: lock value is a constant in locks.TryLock") {
		t.Errorf("go vet misses the helper's constant value at its call:\n%s", out)
	}
}
