// Package orders writes orders fenced by the token its caller passes.
package orders

import (
	"context"
	"database/sql"
	"errors"
)

var ErrStale = errors.New("stale: a newer holder wrote first")

type Repo struct{ DB *sql.DB }

// CompleteFenced refuses a token older than the row's.
func (r *Repo) CompleteFenced(ctx context.Context, id, token int64) error {
	res, err := r.DB.ExecContext(ctx, `UPDATE orders SET status = 'DONE', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, id, token)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrStale
	}
	return nil
}
