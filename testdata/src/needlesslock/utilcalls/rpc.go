package utilcalls

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// An RPC handler builds its errors and reads its metadata with grpc's
// status, codes and metadata packages: values, no call to anyone.
func Deduct(ctx context.Context, rs *redsync.Redsync, db *sql.DB, id int64) error {
	m := rs.NewMutex("lock:stock")
	if err := m.Lock(); err != nil { // want `lock only guards database work`
		return status.Error(codes.Aborted, err.Error())
	}
	defer m.Unlock()
	md, _ := metadata.FromIncomingContext(ctx)
	var stock int64
	if err := db.QueryRowContext(ctx, `SELECT stock FROM products WHERE id = $1`, id).Scan(&stock); err != nil {
		return status.Errorf(codes.NotFound, "product %d", id)
	}
	if stock < 1 {
		return status.Error(codes.FailedPrecondition, "sold out")
	}
	_, err := db.ExecContext(ctx, `UPDATE products SET stock = $1, updated_by = $2 WHERE id = $3`, stock-1, md.Get("user"), id)
	return err
}
