// Package gozeroschema holds models written the way goctl writes them for
// MySQL: the table name is a field the constructor sets, the column list a
// variable built from the struct's db tags. The module's schema says which
// inserts a UNIQUE key refuses a second time.
package gozeroschema

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

type TopupStat struct {
	Id          int64 `db:"id"`
	TenantId    int64 `db:"tenant_id"`
	UserId      int64 `db:"user_id"`
	CreateTimes int64 `db:"create_times"`
}

type TopupOrder struct {
	Id     int64 `db:"id"`
	UserId int64 `db:"user_id"`
	Amount int64 `db:"amount"`
}

var (
	topupStatFieldNames        = builder.RawFieldNames(&TopupStat{})
	topupStatRowsExpectAutoSet = strings.Join(stringx.Remove(topupStatFieldNames, "`id`"), ",")

	topupOrderFieldNames          = builder.RawFieldNames(&TopupOrder{})
	topupOrderRowsExpectAutoSet   = strings.Join(stringx.Remove(topupOrderFieldNames, "`id`"), ",")
	topupOrderRowsWithPlaceHolder = strings.Join(stringx.Remove(topupOrderFieldNames, "`id`"), "=?,") + "=?"
)

type statModel struct {
	conn  sqlx.SqlConn
	table string
}

func newStatModel(conn sqlx.SqlConn) *statModel {
	return &statModel{conn: conn, table: "`t_user_topup_stat`"}
}

func (m *statModel) Insert(ctx context.Context, s *TopupStat) (sql.Result, error) {
	query := fmt.Sprintf("insert into %s (%s) values (?, ?, ?)", m.table, topupStatRowsExpectAutoSet)
	return m.conn.ExecCtx(ctx, query, s.TenantId, s.UserId, s.CreateTimes)
}

type orderModel struct {
	conn  sqlx.SqlConn
	table string
}

func newOrderModel(conn sqlx.SqlConn) *orderModel {
	return &orderModel{conn: conn, table: "`t_topup_order`"}
}

func (m *orderModel) Insert(ctx context.Context, o *TopupOrder) (sql.Result, error) {
	query := fmt.Sprintf("insert into %s (%s) values (?, ?)", m.table, topupOrderRowsExpectAutoSet)
	return m.conn.ExecCtx(ctx, query, o.UserId, o.Amount)
}

func (m *orderModel) Update(ctx context.Context, o *TopupOrder) error {
	query := fmt.Sprintf("update %s set %s where `id` = ?", m.table, topupOrderRowsWithPlaceHolder)
	_, err := m.conn.ExecCtx(ctx, query, o.UserId, o.Amount, o.Id)
	return err
}

// The stat row is one per tenant and user: a stale holder's second insert
// fails on uk_tenant_user.
func firstTopup(ctx context.Context, store *redis.Redis, conn sqlx.SqlConn, tenant, user int64) error {
	l := redis.NewRedisLock(store, fmt.Sprint("topup:", user))
	if ok, err := l.AcquireCtx(ctx); err != nil || !ok {
		return err
	}
	defer l.ReleaseCtx(ctx)
	_, err := newStatModel(conn).Insert(ctx, &TopupStat{TenantId: tenant, UserId: user})
	return err
}

// An order row has only its auto-increment key: a stale holder adds a second.
func topup(ctx context.Context, store *redis.Redis, conn sqlx.SqlConn, user, amount int64) error {
	l := redis.NewRedisLock(store, fmt.Sprint("topup:", user))
	if ok, err := l.AcquireCtx(ctx); err != nil || !ok {
		return err
	}
	defer l.ReleaseCtx(ctx)
	_, err := newOrderModel(conn).Insert(ctx, &TopupOrder{UserId: user, Amount: amount}) // want `unfenced write \(in Insert\) under a TTL lock: after the lease expires it can repeat a newer holder's insert`
	return err
}

func settle(ctx context.Context, store *redis.Redis, conn sqlx.SqlConn, o *TopupOrder) error {
	l := redis.NewRedisLock(store, fmt.Sprint("topup:", o.UserId))
	if ok, err := l.AcquireCtx(ctx); err != nil || !ok {
		return err
	}
	defer l.ReleaseCtx(ctx)
	return newOrderModel(conn).Update(ctx, o) // want `unfenced write \(in Update\) under a TTL lock: after the lease expires it can overwrite`
}
