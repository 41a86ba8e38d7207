// Package prefix holds releases through Lua scripts that check only the
// owner's prefix of the stored value "clientID:token": ARGV[1] is the clientID.
package prefix

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

func work() {}

var findPlainSeparatorRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]); if v and string.find(v, ARGV[1] .. ":", 1, true) == 1 then return redis.call("del", KEYS[1]) end return 0`)

func findPlainSeparator(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	findPlainSeparatorRelease.Run(ctx, rdb, []string{key}, clientID)
}

var findPlainRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]) if v and string.find(v, ARGV[1], 1, true) == 1 then return redis.call("del", KEYS[1]) end return 0`)

func findPlain(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	findPlainRelease.Run(ctx, rdb, []string{key}, clientID)
}

var findAnchoredRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]) if v and string.find(v, "^" .. ARGV[1]) then return redis.call("del", KEYS[1]) end return 0`)

func findAnchored(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	findAnchoredRelease.Run(ctx, rdb, []string{key}, clientID)
}

var findMethodRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]) if v and v:find(ARGV[1] .. ":", 1, true) == 1 then return redis.call("del", KEYS[1]) end return 0`)

func findMethod(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	findMethodRelease.Run(ctx, rdb, []string{key}, clientID)
}

var findInlineGetRelease = redis.NewScript(`if string.find(redis.call("get", KEYS[1]) or "", ARGV[1] .. ":", 1, true) == 1 then return redis.call("del", KEYS[1]) end return 0`)

func findInlineGet(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	findInlineGetRelease.Run(ctx, rdb, []string{key}, clientID)
}

var subLengthRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]) if v and string.sub(v, 1, #ARGV[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func subLength(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	subLengthRelease.Run(ctx, rdb, []string{key}, clientID)
}

var subStringLenRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]) if v and string.sub(v, 1, string.len(ARGV[1])) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func subStringLen(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	subStringLenRelease.Run(ctx, rdb, []string{key}, clientID)
}

var subMethodSwappedRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]) if v and ARGV[1] == v:sub(1, #ARGV[1]) then return redis.call("del", KEYS[1]) end return 0`)

func subMethodSwapped(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	subMethodSwappedRelease.Run(ctx, rdb, []string{key}, clientID)
}

var subEarlyReturnRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]) if not v or string.sub(v, 1, #ARGV[1]) ~= ARGV[1] then return 0 end; return redis.call("del", KEYS[1])`)

func subEarlyReturn(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	subEarlyReturnRelease.Run(ctx, rdb, []string{key}, clientID)
}

var matchRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]) if v and string.match(v, "^" .. ARGV[1] .. ":") then return redis.call("del", KEYS[1]) end return 0`)

func match(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	matchRelease.Run(ctx, rdb, []string{key}, clientID)
}

var matchMethodRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]) if v and v:match("^" .. ARGV[1]) then return redis.call("del", KEYS[1]) end return 0`)

func matchMethod(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	matchMethodRelease.Run(ctx, rdb, []string{key}, clientID)
}

var prefixRefresh = redis.NewScript(`local v = redis.call("get", KEYS[1]) if not v or v:sub(1, #ARGV[1]) ~= ARGV[1] then return 0 end return redis.call("pexpire", KEYS[1], ARGV[2])`)

func refreshed(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	prefixRefresh.Run(ctx, rdb, []string{key}, clientID, 60000)
	work()
	findPlainSeparatorRelease.Run(ctx, rdb, []string{key}, clientID)
}

// A substring found anywhere in the value: "bob" matches "alice-bob:token".
var substringRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]); if v and string.find(v, ARGV[1] .. ":", 1, true) then return redis.call("del", KEYS[1]) end return 0`)

func substring(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	substringRelease.Run(ctx, rdb, []string{key}, clientID) // want `lock released with plain DEL`
}

var unanchoredRelease = redis.NewScript(`local v = redis.call("get", KEYS[1]) if v and string.find(v, ARGV[1]) then return redis.call("del", KEYS[1]) end return 0`)

func unanchored(ctx context.Context, rdb *redis.Client, id, clientID string) {
	key := "lock:" + id
	if !rdb.SetNX(ctx, key, clientID+":"+uuid.NewString(), time.Minute).Val() {
		return
	}
	work()
	unanchoredRelease.Run(ctx, rdb, []string{key}, clientID) // want `lock released with plain DEL`
}
