// Package doubling releases with a Lua script built by doubling a variable
// fourteen times over a 1 MiB constant: reading it must give up at a bound,
// not build 16 GiB.
package doubling

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// pad is 16 bytes; p16 is 1 MiB, folded by the type checker.
const (
	pad = "-- padding ----\n"
	p1  = pad + pad
	p2  = p1 + p1
	p3  = p2 + p2
	p4  = p3 + p3
	p5  = p4 + p4
	p6  = p5 + p5
	p7  = p6 + p6
	p8  = p7 + p7
	p9  = p8 + p8
	p10 = p9 + p9
	p11 = p10 + p10
	p12 = p11 + p11
	p13 = p12 + p12
	p14 = p13 + p13
	p15 = p14 + p14
	p16 = p15 + p15
)

const release = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

// Doubled releases with a script too large to read: not known as a release,
// the SET NX is not a lock.
func Doubled(ctx context.Context, rdb *redis.Client) {
	token := uuid.NewString()
	if !rdb.SetNX(ctx, "lock:doubled", token, 10*time.Second).Val() {
		return
	}
	src := p16 + release
	src = src + src
	src = src + src
	src = src + src
	src = src + src
	src = src + src
	src = src + src
	src = src + src
	src = src + src
	src = src + src
	src = src + src
	src = src + src
	src = src + src
	src = src + src
	src = src + src
	defer rdb.Eval(ctx, src, []string{"lock:doubled"}, token)
}

// Small pads a compare-and-delete a little: still read as one.
func Small(ctx context.Context, rdb *redis.Client) {
	if !rdb.SetNX(ctx, "lock:small", "owner", 10*time.Second).Val() {
		return
	}
	src := "-- unlock\n" + release
	src = src + " "
	defer rdb.Eval(ctx, src, []string{"lock:small"}, "owner") // want `compare-and-delete with a constant token`
}
