// Package pgxdb holds pgx v5 writes under a go-redis lock: a *pgx.Conn, a
// *pgxpool.Pool and a pgx.Tx, each with Exec and QueryRow.
package pgxdb

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
)

var errStale = errors.New("stale: a newer holder won")

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func lock(ctx context.Context, rdb *redis.Client, key string) string {
	token := uuid.NewString()
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return ""
	}
	return token
}

func unlock(ctx context.Context, rdb *redis.Client, key, token string) {
	unlockScript.Run(ctx, rdb, []string{key}, token)
}

func connExecUnfenced(ctx context.Context, rdb *redis.Client, conn *pgx.Conn, id int64) error {
	token := lock(ctx, rdb, "lock:shipment")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:shipment", token)
	_, err := conn.Exec(ctx, `UPDATE shipments SET carrier = 'ups' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func connExecConditional(ctx context.Context, rdb *redis.Client, conn *pgx.Conn, id int64) error {
	token := lock(ctx, rdb, "lock:shipment")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:shipment", token)
	tag, err := conn.Exec(ctx, `UPDATE shipments SET status = 'LABELLED' WHERE id = $1 AND status = 'NEW'`, id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return errStale
	}
	return nil
}

func connQueryRowUnfenced(ctx context.Context, rdb *redis.Client, conn *pgx.Conn, id int64) (string, error) {
	token := lock(ctx, rdb, "lock:shipment")
	if token == "" {
		return "", errStale
	}
	defer unlock(ctx, rdb, "lock:shipment", token)
	var label string
	err := conn.QueryRow(ctx, `UPDATE shipments SET label = gen_label() WHERE id = $1 RETURNING label`, id).Scan(&label) // want `unfenced write under a TTL lock`
	return label, err
}

func poolExecUnfenced(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id int64) error {
	token := lock(ctx, rdb, "lock:wallet")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:wallet", token)
	_, err := pool.Exec(ctx, `INSERT INTO wallet_entries (wallet_id, amount) VALUES ($1, 5)`, id) // want `unfenced write under a TTL lock`
	return err
}

func poolExecConditional(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id int64) error {
	token := lock(ctx, rdb, "lock:wallet")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:wallet", token)
	tag, err := pool.Exec(ctx, `UPDATE wallets SET balance = balance - 5 WHERE id = $1 AND balance >= 5`, id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return errStale
	}
	return nil
}

func poolQueryRowUnfenced(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id int64) (int64, error) {
	token := lock(ctx, rdb, "lock:wallet")
	if token == "" {
		return 0, errStale
	}
	defer unlock(ctx, rdb, "lock:wallet", token)
	var balance int64
	err := pool.QueryRow(ctx, `UPDATE wallets SET balance = 0 WHERE id = $1 RETURNING balance`, id).Scan(&balance) // want `unfenced write under a TTL lock`
	return balance, err
}

func poolQueryRowConditional(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id int64) (int64, error) {
	token := lock(ctx, rdb, "lock:wallet")
	if token == "" {
		return 0, errStale
	}
	defer unlock(ctx, rdb, "lock:wallet", token)
	var balance int64
	err := pool.QueryRow(ctx, `UPDATE wallets SET balance = balance - 5 WHERE id = $1 AND balance >= 5 RETURNING balance`, id).Scan(&balance)
	return balance, err // pgx.ErrNoRows: refused
}

func txUnfenced(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var total int64
	if err := tx.QueryRow(ctx, `UPDATE orders SET total = total * 0.9 WHERE id = $1 RETURNING total`, id).Scan(&total); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE orders SET discounted = true WHERE id = $1`, id); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	return tx.Commit(ctx)
}

func txConditional(ctx context.Context, rdb *redis.Client, conn *pgx.Conn, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var total int64
	if err := tx.QueryRow(ctx, `UPDATE orders SET total = total * 0.9, discounted = true WHERE id = $1 AND discounted = false RETURNING total`, id).Scan(&total); err != nil {
		return err // pgx.ErrNoRows: already discounted
	}
	tag, err := tx.Exec(ctx, `UPDATE orders SET status = 'DISCOUNTED' WHERE id = $1 AND status = 'OPEN'`, id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return errStale
	}
	return tx.Commit(ctx)
}

func namedArgs(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	_, err := pool.Exec(ctx, `UPDATE orders SET status = @status WHERE id = @id`, pgx.NamedArgs{"status": "PAID", "id": id}) // want `unfenced write under a TTL lock`
	return err
}

// UPDATE … RETURNING through Query, its rows collected.
func collectRows(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, customer int64) ([]int64, error) {
	token := lock(ctx, rdb, "lock:customer")
	if token == "" {
		return nil, errStale
	}
	defer unlock(ctx, rdb, "lock:customer", token)
	rows, _ := pool.Query(ctx, `UPDATE orders SET status = 'PAID' WHERE customer_id = $1 AND status = 'PENDING' RETURNING id`, customer)
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// The transaction pgx.BeginFunc runs the callback in.
func beginFunc(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id int64) error {
	token := lock(ctx, rdb, "lock:order")
	if token == "" {
		return errStale
	}
	defer unlock(ctx, rdb, "lock:order", token)
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
		return err
	})
}
