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
	None      Role = iota
	Command        // sends a Redis command; Shape says how its arguments make the command's words
	NewScript      // [keyCount,] source: builds a script object
	Convert        // reply, err: converts a raw reply, turning a nil reply into an error

	// Lock libraries: the lock is an object, and ownership is checked for you.
	LockAcquire // (lock receiver): takes the lock
	LockRelease // (lock receiver): releases it, owner-checked
	LockRefresh // (lock receiver): extends it, owner-checked
	LockObtain  // key, …: takes a lock and returns it as the first result
	LockCancel  // name: takes a lock and returns the func that releases it as the second result
	LockHeader  // (lock receiver): the response header whose Revision is a fencing token
)

// Shape is how a typed method's arguments (after contexts, and the
// connection of a Conn row) make the words of the Redis command it sends. The
// meaning of each command is then read once, from its words, whichever client
// and method sent it.
type Shape int

const (
	Words        Shape = iota // the words after the command's name: Del(keys...) is DEL keys…
	Raw                       // the whole command, its name first: Do("SET", k, v, "NX")
	SetNXTTL                  // key, value, ttl: SET key value NX PX ttl; SETNX when ttl is 0
	SetNXSeconds              // key, value, seconds: SET key value NX EX seconds; SETNX when 0
	SetTTL                    // key, value, ttl: SET key value PX ttl; a plain SET when ttl is 0
	SetSeconds                // key, value, seconds: SET key value EX seconds
	SetArgs                   // key, value, struct{Mode, TTL, ExpireAt, KeepTTL}: SET with options
	DelExArgs                 // key, struct{Mode, MatchValue}: DELEX key [IFEQ value]
	EvalKeys                  // script, keys slice, args…: EVAL script numkeys keys… args…
	ScriptRun                 // (script receiver) keys slice, args…: EVAL of the script's source
	ScriptDo                  // (script receiver) keys and args: the key count comes from NewScript
	ScriptArg                 // script, keys slice, args…: go-zero's ScriptRun(script, keys, args…)
)

// Func is one row of the table.
type Func struct {
	Path string // package path
	Recv string // receiver type name; "" matches package functions and any receiver
	Name string
	Role Role
	// Role Command: the command sent, and how the arguments make its words.
	// Raw rows name none: the first argument does.
	Command string
	Shape   Shape
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

// goRedis are go-redis's import paths, newest first, with what each has of
// the newer commands.
var goRedis = []struct {
	path            string
	getDel, setArgs bool // GetDel and SetArgs, from v8
	delEx           bool // DelExArgs, in recent v9 releases
	setEx           bool // SetEx, from v9
}{
	{"github.com/redis/go-redis/v9", true, true, true, true},
	{"github.com/go-redis/redis/v9", true, true, false, true}, // the v9 pre-releases
	{"github.com/go-redis/redis/v8", true, true, false, false},
	{"github.com/go-redis/redis/v7", false, false, false, false},
	{"github.com/go-redis/redis", false, false, false, false},
}

// redigo are redigo's import paths; the old one has no context calls.
var redigo = []struct {
	path    string
	context bool
}{
	{"github.com/gomodule/redigo/redis", true},
	{"github.com/garyburd/redigo/redis", false},
}

// goZero is go-zero's Redis client, *redis.Redis, whose methods wrap
// go-redis; they are rows of their own, so that a call reads as the command
// it sends wherever go-zero's code is not analysed.
const goZero = "github.com/zeromicro/go-zero/core/stores/redis"

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

// libs are the paths of the lock libraries; clientPaths those of the Redis
// clients.
var libs, clientPaths = map[string]bool{}, map[string]bool{}

var table = rows()

func rows() []Func {
	table := append([]Func(nil), lockLibs...)
	for _, f := range lockLibs {
		libs[f.Path] = true
	}
	cmd := func(path, recv, name, command string, shape Shape) Func {
		return Func{Path: path, Recv: recv, Name: name, Role: Command, Command: command, Shape: shape}
	}
	for _, v := range goRedis {
		p := v.path
		NilErrors[p], clientPaths[p] = "Nil", true
		table = append(table,
			cmd(p, "", "SetNX", "SET", SetNXTTL),
			cmd(p, "", "Set", "SET", SetTTL),
			cmd(p, "", "Del", "DEL", Words),
			cmd(p, "", "Unlink", "UNLINK", Words),
			cmd(p, "", "Expire", "EXPIRE", Words),
			cmd(p, "", "PExpire", "PEXPIRE", Words),
			cmd(p, "", "Get", "GET", Words),
			cmd(p, "", "Incr", "INCR", Words),
			cmd(p, "", "IncrBy", "INCRBY", Words),
			Func{Path: p, Name: "Do", Role: Command, Shape: Raw, NilIsError: true},
			Func{Path: p, Name: "Eval", Role: Command, Command: "EVAL", Shape: EvalKeys, NilIsError: true},
			Func{Path: p, Name: "EvalSha", Role: Command, Command: "EVALSHA", Shape: EvalKeys, NilIsError: true},
			Func{Path: p, Recv: "Script", Name: "Run", Role: Command, Shape: ScriptRun, Conn: true, NilIsError: true},
			Func{Path: p, Recv: "Script", Name: "Eval", Role: Command, Shape: ScriptRun, Conn: true, NilIsError: true},
			Func{Path: p, Recv: "Script", Name: "EvalSha", Role: Command, Shape: ScriptRun, Conn: true, NilIsError: true},
			Func{Path: p, Name: "NewScript", Role: NewScript},
		)
		if v.getDel {
			table = append(table, cmd(p, "", "GetDel", "GETDEL", Words))
		}
		if v.setArgs {
			table = append(table, Func{Path: p, Name: "SetArgs", Role: Command, Command: "SET", Shape: SetArgs, NilIsError: true})
		}
		if v.setEx {
			table = append(table, cmd(p, "", "SetEx", "SET", SetTTL))
		}
		if v.delEx {
			table = append(table, cmd(p, "", "DelExArgs", "DELEX", DelExArgs))
		}
	}
	for _, v := range redigo {
		p := v.path
		NilErrors[p], clientPaths[p] = "ErrNil", true
		table = append(table,
			Func{Path: p, Recv: "Script", Name: "Do", Role: Command, Shape: ScriptDo, Conn: true},
			Func{Path: p, Recv: "Script", Name: "Send", Role: Command, Shape: ScriptDo, Conn: true, Queued: true},
			Func{Path: p, Name: "Do", Role: Command, Shape: Raw},
			Func{Path: p, Name: "Send", Role: Command, Shape: Raw, Queued: true},
			Func{Path: p, Name: "NewScript", Role: NewScript},
		)
		if v.context {
			table = append(table,
				Func{Path: p, Recv: "Script", Name: "DoContext", Role: Command, Shape: ScriptDo, Conn: true},
				Func{Path: p, Name: "DoContext", Role: Command, Shape: Raw, Conn: true},
			)
		}
		for _, conv := range []string{"String", "Bool", "Int", "Int64", "Uint64", "Bytes", "Float64"} {
			table = append(table, Func{Path: p, Name: conv, Role: Convert, NilIsError: true})
		}
	}
	// go-zero's client answers a missing key with a zero value and no error,
	// and SETNX with a bool: no nil-reply error to test.
	for _, ctx := range []string{"", "Ctx"} {
		table = append(table,
			cmd(goZero, "Redis", "Setnx"+ctx, "SETNX", Words),
			cmd(goZero, "Redis", "SetnxEx"+ctx, "SET", SetNXSeconds),
			cmd(goZero, "Redis", "Setex"+ctx, "SET", SetSeconds),
			cmd(goZero, "Redis", "Del"+ctx, "DEL", Words),
			cmd(goZero, "Redis", "Expire"+ctx, "EXPIRE", Words),
			cmd(goZero, "Redis", "Get"+ctx, "GET", Words),
			cmd(goZero, "Redis", "GetDel"+ctx, "GETDEL", Words),
			cmd(goZero, "Redis", "Incr"+ctx, "INCR", Words),
			cmd(goZero, "Redis", "Incrby"+ctx, "INCRBY", Words),
			cmd(goZero, "Redis", "Eval"+ctx, "EVAL", EvalKeys),
			cmd(goZero, "Redis", "EvalSha"+ctx, "EVALSHA", EvalKeys),
			cmd(goZero, "Redis", "ScriptRun"+ctx, "EVAL", ScriptArg),
			Func{Path: goZero, Recv: "Redis", Name: "Do" + ctx, Role: Command, Shape: Raw},
		)
	}
	table = append(table, Func{Path: goZero, Name: "NewScript", Role: NewScript})
	clientPaths[goZero] = true
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
	return clientPaths[path] || libs[path]
}

// IsClient reports whether path is a Redis client (not a lock library), whose
// command objects (Val, Err, Result) and reply converters carry results.
func IsClient(path string) bool {
	return clientPaths[path]
}

// notTokens are the packages whose values a write may use as its fencing
// token but that are none: unique or time-ordered values that no lock issues.
var notTokens = []string{
	"github.com/google/uuid", "github.com/gofrs/uuid", "github.com/satori/go.uuid",
	"github.com/rs/xid", "github.com/segmentio/ksuid", "github.com/oklog/ulid",
	"github.com/bwmarrin/snowflake", "github.com/sony/sonyflake",
	"time", "math/rand", "math/rand/v2", "crypto/rand", "os",
}

// Fresh reports whether the function name of package path draws a value
// unique to its call: anything of a UUID or random package, or the clock.
func Fresh(path, name string) bool {
	if path == "time" {
		return name == "Now"
	}
	return path != "os" && NotToken(path)
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
