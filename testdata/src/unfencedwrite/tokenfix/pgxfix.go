package tokenfix

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
)

// A pgx pool in a file that does not import errors: the fix imports it and
// reads pgx's CommandTag.
func completePgx(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id int64) error {
	token, err := acquire.Run(ctx, rdb, []string{"lock:order", "fence:order"}, 10000).Int64()
	if err != nil || token == 0 {
		return err
	}
	defer rdb.Del(ctx, "lock:order")
	if _, err := pool.Exec(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id); err != nil { // want `unfenced write under a TTL lock`
		return err
	}
	_, err = pool.Exec(ctx, `UPDATE orders SET note = 'paid' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

// The error is dropped as well: no check can be added, so no fix is offered.
func dropped(ctx context.Context, rdb *redis.Client, pool *pgxpool.Pool, id int64) {
	token, err := acquire.Run(ctx, rdb, []string{"lock:order", "fence:order"}, 10000).Int64()
	if err != nil || token == 0 {
		return
	}
	defer rdb.Del(ctx, "lock:order")
	pool.Exec(ctx, `UPDATE orders SET status = 'PAID' WHERE id = $1`, id) // want `unfenced write under a TTL lock`
}
