// Package cached locks around a go-zero model generated with a cache: its
// reads go through the table's cache and its writes drop the row's cache
// keys, which is the database's business, not another system's.
package cached

import (
	"context"
	"fmt"

	"github.com/zeromicro/go-zero/core/stores/redis"

	"testcases/unfencedwrite/gozerocached"
)

func Vote(ctx context.Context, store *redis.Redis, m *gozerocached.VotesModel, id int64) error {
	l := redis.NewRedisLock(store, fmt.Sprint("votes:", id))
	ok, err := l.AcquireCtx(ctx) // want `lock only guards database work`
	if err != nil || !ok {
		return err
	}
	defer l.ReleaseCtx(ctx)
	v, err := m.FindOne(ctx, id)
	if err != nil {
		return err
	}
	v.Count++
	return m.Update(ctx, v)
}
