// Package rollback locks a list of seats one key at a time and, when one is
// taken, deletes the keys it has locked so far.
package rollback

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Locker struct{ rdb *redis.Client }

func (l *Locker) LockSeats(ctx context.Context, prefix string, seats []string, ttl time.Duration) (bool, []string, error) {
	var taken []string
	for _, seat := range seats {
		key := prefix + ":" + seat
		ok, err := l.rdb.SetNX(ctx, key, "locked", ttl).Result() // want `lock value is a constant`
		if err != nil || !ok {
			for _, k := range taken {
				l.rdb.Del(ctx, k)
			}
			return false, nil, err
		}
		taken = append(taken, key)
	}
	return true, taken, nil
}

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

// LockAll stores one token for all its keys and rolls back with the
// owner-checked script.
func (l *Locker) LockAll(ctx context.Context, keys []string, ttl time.Duration) (string, bool) {
	token := uuid.NewString()
	taken := make([]string, 0, len(keys))
	for _, key := range keys {
		ok, err := l.rdb.SetNX(ctx, "seat:"+key, token, ttl).Result()
		if err != nil || !ok {
			for _, k := range taken {
				unlock.Run(ctx, l.rdb, []string{k}, token)
			}
			return "", false
		}
		taken = append(taken, "seat:"+key)
	}
	return token, true
}

// A cache warmed key by key is no lock: nothing it appends is deleted.
func (l *Locker) Warm(ctx context.Context, ids []string) []string {
	var warmed []string
	for _, id := range ids {
		if l.rdb.SetNX(ctx, "cache:"+id, id, time.Hour).Val() {
			warmed = append(warmed, id)
		}
	}
	return warmed
}
