// Package repo is the MySQL repository the service writes through.
package repo

import (
	"context"
	"database/sql"
)

type Tasks struct{ DB *sql.DB }

func (r Tasks) NextID(ctx context.Context) (int64, error) {
	var id int64
	err := r.DB.QueryRowContext(ctx, `SELECT id FROM migration_tasks WHERE status = 'PENDING' LIMIT 1`).Scan(&id)
	return id, err
}

func (r Tasks) Fail(ctx context.Context, id int64) error {
	_, err := r.DB.ExecContext(ctx, `UPDATE migration_tasks SET status = 'PAUSED' WHERE id = ?`, id)
	return err
}
