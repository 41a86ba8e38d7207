// Package pinned imports every SQL library lockvet's tables name, so that
// the test module pins a version of each and internal/sqlcall can check its
// rows against the real code.
package pinned

import (
	_ "database/sql"

	_ "github.com/Masterminds/squirrel"
	_ "github.com/go-xorm/xorm"
	_ "github.com/jackc/pgx/v4"
	_ "github.com/jackc/pgx/v4/pgxpool"
	_ "github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jinzhu/gorm"
	_ "github.com/jmoiron/sqlx"
	_ "github.com/uptrace/bun"
	_ "github.com/zeromicro/go-zero/core/stores/sqlx"
	_ "gorm.io/gorm"
	_ "xorm.io/xorm"
)
