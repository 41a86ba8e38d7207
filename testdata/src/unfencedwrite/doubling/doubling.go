// Package doubling writes a statement built by doubling a variable fourteen
// times over a 1 MiB constant: reading its text must give up at a bound, not
// build 16 GiB (it did: fatal error: out of memory in sqlcall's texter).
package doubling

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// pad is 16 bytes; p16 is 1 MiB, folded by the type checker.
const (
	pad = "0123456789abcdef"
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

// Doubled writes a text too large to read: it is not judged.
func Doubled(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:doubled", token, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:doubled"}, token)
	q := "UPDATE orders SET note = '" + p16 + "' WHERE id = $1;"
	q = q + q
	q = q + q
	q = q + q
	q = q + q
	q = q + q
	q = q + q
	q = q + q
	q = q + q
	q = q + q
	q = q + q
	q = q + q
	q = q + q
	q = q + q
	q = q + q
	_, err := db.ExecContext(ctx, q, id)
	return err
}

// Small doubles a short statement: still read, and still unfenced.
func Small(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:small", token, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:small"}, token)
	q := "UPDATE orders SET note = 'x' WHERE id = $1 "
	q = q + "  "
	_, err := db.ExecContext(ctx, q, id) // want `unfenced write under a TTL lock`
	return err
}
