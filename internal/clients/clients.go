// Package clients is lockvet's table of Redis client calls: which function of which
// library acquires, releases, refreshes or reads a key, and where its arguments sit.
//
// It is data, not code paths per client: a new library is a few rows here, and
// "does lockvet know library X?" is answered by reading this file.
package clients

import "strings"

// Role is what a call does, as far as locks are concerned.
type Role int

const (
	None          Role = iota
	SetIfAbsent        // key, value, ttl: SETNX with an optional TTL
	SetWithArgs        // key, value, options struct: SET with a Mode field
	Delete             // keys...: DEL, UNLINK
	GetDelete          // key: GETDEL
	Expire             // key, ttl: EXPIRE, PEXPIRE
	Get                // key: GET
	DeleteIfEqual      // key, options struct: DELEX with a Mode field (IFEQ)
	Command            // name, args...: a raw command
	Eval               // script, keys, args...
	EvalSha            // sha, keys, args...
	ScriptRun          // (script receiver) keys, args...
	ScriptDo           // (script receiver) keysAndArgs...: the key count comes from NewScript
	NewScript          // [keyCount,] source: builds a script object
	Convert            // reply, err: converts a raw reply, turning a nil reply into an error
	Incr               // key: INCR, INCRBY; taken under a lock, the count is a fencing token

	// Lock libraries: the lock is an object, and ownership is checked for you.
	LockAcquire // (lock receiver): takes the lock
	LockRelease // (lock receiver): releases it, owner-checked
	LockRefresh // (lock receiver): extends it, owner-checked
	LockObtain  // key, …: takes a lock and returns it as the first result
	LockCancel  // name: takes a lock and returns the func that releases it as the second result
	LockHeader  // (lock receiver): the response header whose Revision is a fencing token
)

// Func is one row of the table.
type Func struct {
	Path string // package path
	Recv string // receiver type name; "" matches package functions and any receiver
	Name string
	Role Role
	// Conn: after dropping context arguments, the first argument is a connection
	// or client, not a key (redigo's DoContext(c, ctx, …), Script.Run(ctx, c, …)).
	Conn bool
	// NilIsError: a "not set" reply surfaces as the nil-reply error (go-redis
	// redis.Nil, redigo ErrNil), so an error check alone gates the work.
	NilIsError bool
	// Queued: the command is queued on a connection or pipeline; its reply comes
	// later, so there is no result at the call to look at.
	Queued bool
}

var goRedis = []string{
	"github.com/redis/go-redis/v9",
	"github.com/go-redis/redis/v9", // the v9 release candidates

	"github.com/go-redis/redis/v8",
	"github.com/go-redis/redis/v7",
	"github.com/go-redis/redis",
}

var redigo = []string{
	"github.com/gomodule/redigo/redis",
	"github.com/garyburd/redigo/redis",
}

// lockLibs are the lock libraries, whose rows are added below.
var lockLibs = []Func{
	{Path: "github.com/go-redsync/redsync/v4", Recv: "Mutex", Name: "Lock", Role: LockAcquire},
	{Path: "github.com/go-redsync/redsync/v4", Recv: "Mutex", Name: "LockContext", Role: LockAcquire},
	{Path: "github.com/go-redsync/redsync/v4", Recv: "Mutex", Name: "TryLock", Role: LockAcquire},
	{Path: "github.com/go-redsync/redsync/v4", Recv: "Mutex", Name: "TryLockContext", Role: LockAcquire},
	{Path: "github.com/go-redsync/redsync/v4", Recv: "Mutex", Name: "Unlock", Role: LockRelease},
	{Path: "github.com/go-redsync/redsync/v4", Recv: "Mutex", Name: "UnlockContext", Role: LockRelease},
	{Path: "github.com/go-redsync/redsync/v4", Recv: "Mutex", Name: "Extend", Role: LockRefresh},
	{Path: "github.com/go-redsync/redsync/v4", Recv: "Mutex", Name: "ExtendContext", Role: LockRefresh},
	{Path: "github.com/bsm/redislock", Name: "Obtain", Role: LockObtain, Conn: true},
	{Path: "github.com/bsm/redislock", Recv: "Client", Name: "Obtain", Role: LockObtain},
	{Path: "github.com/bsm/redislock", Recv: "Lock", Name: "Release", Role: LockRelease},
	{Path: "github.com/bsm/redislock", Recv: "Lock", Name: "Refresh", Role: LockRefresh},
	{Path: "github.com/zeromicro/go-zero/core/stores/redis", Recv: "RedisLock", Name: "Acquire", Role: LockAcquire},
	{Path: "github.com/zeromicro/go-zero/core/stores/redis", Recv: "RedisLock", Name: "AcquireCtx", Role: LockAcquire},
	{Path: "github.com/zeromicro/go-zero/core/stores/redis", Recv: "RedisLock", Name: "Release", Role: LockRelease},
	{Path: "github.com/zeromicro/go-zero/core/stores/redis", Recv: "RedisLock", Name: "ReleaseCtx", Role: LockRelease},
	{Path: "github.com/redis/rueidis/rueidislock", Recv: "Locker", Name: "WithContext", Role: LockCancel},
	{Path: "github.com/redis/rueidis/rueidislock", Recv: "Locker", Name: "TryWithContext", Role: LockCancel},
	{Path: "go.etcd.io/etcd/client/v3/concurrency", Recv: "Mutex", Name: "Lock", Role: LockAcquire},
	{Path: "go.etcd.io/etcd/client/v3/concurrency", Recv: "Mutex", Name: "TryLock", Role: LockAcquire},
	{Path: "go.etcd.io/etcd/client/v3/concurrency", Recv: "Mutex", Name: "Unlock", Role: LockRelease},
	{Path: "go.etcd.io/etcd/client/v3/concurrency", Recv: "Mutex", Name: "Header", Role: LockHeader},
}

// NilErrors names the nil-reply sentinels, by package path and variable name.
var NilErrors = map[string]string{}

// libs are the paths of the lock libraries.
var libs = map[string]bool{}

var table = rows()

func rows() []Func {
	table := append([]Func(nil), lockLibs...)
	for _, f := range lockLibs {
		libs[f.Path] = true
	}
	for _, p := range goRedis {
		NilErrors[p] = "Nil"
		table = append(table,
			Func{Path: p, Name: "SetNX", Role: SetIfAbsent},
			Func{Path: p, Name: "SetArgs", Role: SetWithArgs, NilIsError: true},
			Func{Path: p, Name: "Del", Role: Delete},
			Func{Path: p, Name: "Unlink", Role: Delete},
			Func{Path: p, Name: "GetDel", Role: GetDelete},
			Func{Path: p, Name: "Expire", Role: Expire},
			Func{Path: p, Name: "PExpire", Role: Expire},
			Func{Path: p, Name: "Get", Role: Get},
			Func{Path: p, Name: "DelExArgs", Role: DeleteIfEqual},
			Func{Path: p, Name: "Do", Role: Command, NilIsError: true},
			Func{Path: p, Name: "Eval", Role: Eval, NilIsError: true},
			Func{Path: p, Name: "EvalSha", Role: EvalSha, NilIsError: true},
			Func{Path: p, Recv: "Script", Name: "Run", Role: ScriptRun, Conn: true, NilIsError: true},
			Func{Path: p, Recv: "Script", Name: "Eval", Role: ScriptRun, Conn: true, NilIsError: true},
			Func{Path: p, Recv: "Script", Name: "EvalSha", Role: ScriptRun, Conn: true, NilIsError: true},
			Func{Path: p, Name: "NewScript", Role: NewScript},
			Func{Path: p, Name: "Incr", Role: Incr},
			Func{Path: p, Name: "IncrBy", Role: Incr},
		)
	}
	for _, p := range redigo {
		NilErrors[p] = "ErrNil"
		table = append(table,
			Func{Path: p, Recv: "Script", Name: "Do", Role: ScriptDo, Conn: true},
			Func{Path: p, Recv: "Script", Name: "DoContext", Role: ScriptDo, Conn: true},
			Func{Path: p, Recv: "Script", Name: "Send", Role: ScriptDo, Conn: true, Queued: true},
			Func{Path: p, Name: "Do", Role: Command},
			Func{Path: p, Name: "Send", Role: Command, Queued: true},
			Func{Path: p, Name: "DoContext", Role: Command, Conn: true},
			Func{Path: p, Name: "NewScript", Role: NewScript},
		)
		for _, conv := range []string{"String", "Bool", "Int", "Int64", "Uint64", "Bytes", "Float64"} {
			table = append(table, Func{Path: p, Name: conv, Role: Convert, NilIsError: true})
		}
	}
	return table
}

type key struct{ path, name string }

var index = func() map[key][]*Func {
	m := make(map[key][]*Func)
	for i := range table {
		f := &table[i]
		k := key{f.Path, f.Name}
		m[k] = append(m[k], f)
	}
	return m
}()

// Lookup returns the row for a function or method named name, declared in package
// path on a receiver type named recv ("" for package functions), or nil.
// A row naming the receiver wins over one that names none.
func Lookup(path, recv, name string) *Func {
	var anyRecv *Func
	for _, f := range index[key{path, name}] {
		if f.Recv == "" {
			anyRecv = f
		} else if f.Recv == recv {
			return f
		}
	}
	return anyRecv
}

// Pipelines names the go-redis types whose commands are queued until Exec.
var Pipelines = map[string]bool{"Pipeliner": true, "Pipeline": true, "Tx": true}

// Known reports whether path is a package whose calls the table describes.
func Known(path string) bool {
	_, ok := NilErrors[path]
	return ok || libs[path]
}

// IsClient reports whether path is a Redis client (not a lock library), whose
// command objects (Val, Err, Result) and reply converters carry results.
func IsClient(path string) bool {
	_, ok := NilErrors[path]
	return ok
}

// notTokens are the packages whose values a write may use as its fencing
// token but that are none: unique or time-ordered values that no lock issues.
var notTokens = []string{
	"github.com/google/uuid", "github.com/gofrs/uuid", "github.com/satori/go.uuid",
	"github.com/rs/xid", "github.com/segmentio/ksuid", "github.com/oklog/ulid",
	"github.com/bwmarrin/snowflake", "github.com/sony/sonyflake",
	"time", "math/rand", "math/rand/v2", "crypto/rand", "os",
}

// NotToken reports whether values made by functions of package path are no
// fencing token, whatever a write does with them.
func NotToken(path string) bool {
	for _, p := range notTokens {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}
