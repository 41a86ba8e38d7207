// want package:"effects"

// Package generic calls a generic function of its own: its body is summarised
// as the generic function's, and its instances say the same.
package generic

import (
	"context"
	"database/sql"
)

func save[T any](ctx context.Context, db *sql.DB, v T) error { // want save:`effects write Insert things`
	_, err := db.ExecContext(ctx, `INSERT INTO things (v) VALUES ($1)`, v)
	return err
}

func SaveInt(ctx context.Context, db *sql.DB, v int) error { // want SaveInt:`effects write Insert things`
	return save(ctx, db, v)
}

// A method value does what the method does.
type store struct{ db *sql.DB }

func (s store) put(ctx context.Context) { // want put:`effects write Insert things`
	s.db.ExecContext(ctx, `INSERT INTO things (v) VALUES (1)`)
}

func Indirect(ctx context.Context, s store) { // want Indirect:`effects write Insert things`
	f := s.put
	f(ctx)
}
