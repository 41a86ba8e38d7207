// Package gozeromodel holds inserts written the way goctl, go-zero's model
// generator, writes them: the column list is a variable built from the
// struct's field names, with the auto-set columns removed. A table whose key
// the caller supplies rejects a stale holder's second insert of the same row;
// a table with an auto-increment key takes it.
package gozeromodel

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/zeromicro/go-zero/core/stores/builder"
	"github.com/zeromicro/go-zero/core/stores/redis"
	"github.com/zeromicro/go-zero/core/stores/sqlx"
	"github.com/zeromicro/go-zero/core/stringx"
)

type Draft struct {
	ListenerUid int64  `db:"listener_uid"`
	NickName    string `db:"nick_name"`
}

type Grant struct {
	Id     int64 `db:"id"`
	UserId int64 `db:"user_id"`
	Points int64 `db:"points"`
}

var (
	draftFieldNames          = builder.RawFieldNames(&Draft{}, true)
	draftRowsExpectAutoSet   = strings.Join(stringx.Remove(draftFieldNames, "create_time", "update_time"), ",")
	draftRowsWithPlaceHolder = builder.PostgreSqlJoin(stringx.Remove(draftFieldNames, "listener_uid", "create_time", "update_time"))

	grantFieldNames          = builder.RawFieldNames(&Grant{})
	grantRowsExpectAutoSet   = strings.Join(stringx.Remove(grantFieldNames, "`id`", "`create_time`", "`update_time`"), ",")
	grantRowsWithPlaceHolder = strings.Join(stringx.Remove(grantFieldNames, "`id`", "`create_time`", "`update_time`"), "=?,") + "=?"
)

type models struct {
	conn  sqlx.SqlConn
	table string
}

// The draft's key, listener_uid, is among the inserted columns.
func (m *models) insertDraft(ctx context.Context, d *Draft) (sql.Result, error) {
	query := fmt.Sprintf("insert into %s (%s) values ($1, $2)", m.table, draftRowsExpectAutoSet)
	return m.conn.ExecCtx(ctx, query, d.ListenerUid, d.NickName)
}

func (m *models) updateDraft(ctx context.Context, d *Draft) error {
	query := fmt.Sprintf("update %s set %s where listener_uid = $1", m.table, draftRowsWithPlaceHolder)
	_, err := m.conn.ExecCtx(ctx, query, d.ListenerUid, d.NickName)
	return err
}

// The grant's key is auto-increment: every insert makes a new row.
func (m *models) insertGrant(ctx context.Context, g *Grant) (sql.Result, error) {
	query := fmt.Sprintf("insert into %s (%s) values (?, ?)", m.table, grantRowsExpectAutoSet)
	return m.conn.ExecCtx(ctx, query, g.UserId, g.Points)
}

func createDraft(ctx context.Context, store *redis.Redis, m *models, d *Draft) error {
	l := redis.NewRedisLock(store, fmt.Sprint("draft:", d.ListenerUid))
	ok, err := l.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	defer l.ReleaseCtx(ctx)
	_, err = m.insertDraft(ctx, d)
	return err
}

func editDraft(ctx context.Context, store *redis.Redis, m *models, d *Draft) error {
	l := redis.NewRedisLock(store, fmt.Sprint("draft:", d.ListenerUid))
	ok, err := l.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	defer l.ReleaseCtx(ctx)
	return m.updateDraft(ctx, d) // want `unfenced write \(in updateDraft\) under a TTL lock`
}

func grantPoints(ctx context.Context, store *redis.Redis, m *models, g *Grant) error {
	l := redis.NewRedisLock(store, fmt.Sprint("grant:", g.UserId))
	ok, err := l.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	defer l.ReleaseCtx(ctx)
	_, err = m.insertGrant(ctx, g) // want `unfenced write \(in insertGrant\) under a TTL lock: after the lease expires it can repeat`
	return err
}
