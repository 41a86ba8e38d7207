// Package earned holds locks that guard something besides the database: they
// stay silent.
package earned

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	"github.com/segmentio/kafka-go"
)

var errBusy = errors.New("busy")

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// A payment API with no idempotency key: the lock is earned.
func charge(ctx context.Context, rdb *redis.Client, db *sql.DB, hc *http.Client, id int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:charge", token, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:charge"}, token)
	req, _ := http.NewRequestWithContext(ctx, "POST", "http://127.0.0.1:9/charge", strings.NewReader("{}"))
	if _, err := hc.Do(req); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE orders SET charged = true WHERE id = $1`, id)
	return err
}

// A queue publish behind an interface: its effects are unknown.
type Publisher interface {
	Publish(ctx context.Context, topic string, body []byte) error
}

func publish(ctx context.Context, rs *redsync.Redsync, db *sql.DB, q Publisher, id int64) error {
	m := rs.NewMutex("lock:publish")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if err := q.Publish(ctx, "orders", []byte("paid")); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE orders SET published = true WHERE id = $1`, id)
	return err
}

// An unknown callback.
func withLock(ctx context.Context, rs *redsync.Redsync, db *sql.DB, id int64, then func() error) error {
	m := rs.NewMutex("lock:cb")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if _, err := db.ExecContext(ctx, `UPDATE orders SET seen = true WHERE id = $1`, id); err != nil {
		return err
	}
	return then()
}

// Another Redis write besides the lock's own: a cache fill.
func rebuildCache(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) error {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:cache", token, 10*time.Second).Result(); err != nil || !ok {
		return errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:cache"}, token)
	if _, err := db.ExecContext(ctx, `UPDATE stats SET rebuilt_at = now() WHERE id = $1`, id); err != nil {
		return err
	}
	return rdb.Set(ctx, "cache:stats", "x", time.Minute).Err()
}

// Only reads under the lock: nothing to serialize, nothing reported.
func readOnly(ctx context.Context, rdb *redis.Client, db *sql.DB, id int64) (string, error) {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, "lock:read", token, 10*time.Second).Result(); err != nil || !ok {
		return "", errBusy
	}
	defer unlock.Run(ctx, rdb, []string{"lock:read"}, token)
	var s string
	err := db.QueryRowContext(ctx, `SELECT status FROM orders WHERE id = $1`, id).Scan(&s)
	return s, err
}

// A message published to Kafka under the lock: the lock is earned.
func announce(ctx context.Context, rs *redsync.Redsync, db *sql.DB, w *kafka.Writer, id int64) error {
	m := rs.NewMutex("lock:announce")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if _, err := db.ExecContext(ctx, `UPDATE orders SET announced = true WHERE id = $1`, id); err != nil {
		return err
	}
	return w.WriteMessages(ctx, kafka.Message{Key: []byte("order"), Value: []byte("paid")})
}
