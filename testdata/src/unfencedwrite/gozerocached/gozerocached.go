// Package gozerocached holds a model goctl generates with a cache (goctl
// model -c): each statement runs in a function literal handed to the
// cached connection, which reads through the cache and drops the row's
// cache keys after a write.
package gozerocached

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/zeromicro/go-zero/core/stores/cache"
	"github.com/zeromicro/go-zero/core/stores/redis"
	"github.com/zeromicro/go-zero/core/stores/sqlc"
	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

var cacheVotesIdPrefix = "cache:votes:id:"

type Votes struct {
	Id    int64 `db:"id"`
	Count int64 `db:"count"`
}

type VotesModel struct {
	sqlc.CachedConn
	table string
}

func NewVotesModel(conn sqlx.SqlConn, c cache.CacheConf) *VotesModel {
	return &VotesModel{CachedConn: sqlc.NewConn(conn, c), table: "`votes`"}
}

func (m *VotesModel) FindOne(ctx context.Context, id int64) (*Votes, error) {
	key := fmt.Sprintf("%s%v", cacheVotesIdPrefix, id)
	var resp Votes
	err := m.QueryRowCtx(ctx, &resp, key, func(ctx context.Context, conn sqlx.SqlConn, v any) error {
		query := fmt.Sprintf("select `id`,`count` from %s where `id` = ? limit 1", m.table)
		return conn.QueryRowCtx(ctx, v, query, id)
	})
	return &resp, err
}

func (m *VotesModel) Update(ctx context.Context, data *Votes) error {
	key := fmt.Sprintf("%s%v", cacheVotesIdPrefix, data.Id)
	_, err := m.ExecCtx(ctx, func(ctx context.Context, conn sqlx.SqlConn) (sql.Result, error) {
		query := fmt.Sprintf("update %s set `count` = ? where `id` = ?", m.table)
		return conn.ExecCtx(ctx, query, data.Count, data.Id)
	}, key)
	return err
}

// A read and a write of one table, both through the cache: the cache is
// the table's, and the write is a plain update by id.
func vote(ctx context.Context, store *redis.Redis, m *VotesModel, id int64) error {
	l := redis.NewRedisLock(store, fmt.Sprint("votes:", id))
	ok, err := l.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	defer l.ReleaseCtx(ctx)
	v, err := m.FindOne(ctx, id)
	if err != nil {
		return err
	}
	v.Count++
	return m.Update(ctx, v) // want `unfenced write \(in Update\) under a TTL lock`
}
