// Package schema reads the unique keys a module's SQL schema declares, so
// that a check can tell an INSERT the database refuses twice from one it
// accepts again.
//
// The schema is every .sql file under the module root (the nearest
// directory holding go.mod above the analysed file), read in lexical path
// order as migrations are applied: golang-migrate and dbmate layouts, goose
// files (up to their `-- +goose Down` line), atlas and sqlc schema files,
// and the migration schema ent generates (ent/migrate/schema.go: its unique
// indexes and columns, and primary keys).
// Down migrations (*.down.sql, *_down.sql, and dbmate's `-- migrate:down`
// sections) are skipped, and so are vendor, node_modules, testdata and dot
// directories. A later DROP INDEX, ALTER TABLE … DROP CONSTRAINT or DROP TABLE
// removes what an earlier file declared. Each module's schema is read once
// per process.
package schema

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/lockvet/lockvet/internal/sqltext"
)

// Schema is the unique keys of one module, by table.
type Schema struct {
	keys map[string][]sqltext.Unique
}

// Limits on what is read, so that a module holding data dumps does not make
// every run slow: files past them are not read.
const (
	maxFiles    = 5000
	maxFileSize = 4 << 20
	maxTotal    = 64 << 20
)

var cache sync.Map // module root → *entry

type entry struct {
	once sync.Once
	s    *Schema
}

// ForFile returns the schema of the module holding the Go file filename;
// an empty schema when there is none.
func ForFile(filename string) *Schema {
	root := moduleRoot(filepath.Dir(filename))
	if root == "" {
		return &Schema{}
	}
	e, _ := cache.LoadOrStore(root, new(entry))
	en := e.(*entry)
	en.once.Do(func() { en.s = Read(root) })
	return en.s
}

func moduleRoot(dir string) string {
	for {
		if st, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !st.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Read reads the schema files under root.
func Read(root string) *Schema {
	s := &Schema{keys: make(map[string][]sqltext.Unique)}
	var files []string
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "vendor" || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if (strings.HasSuffix(name, ".sql") && !down(name) || entMigrate(filepath.ToSlash(path))) && len(files) < maxFiles {
			files = append(files, path)
		}
		return nil
	})
	total := 0
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil || st.Size() > maxFileSize || total+int(st.Size()) > maxTotal {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		total += len(data)
		if strings.HasSuffix(f, ".go") {
			s.apply(entKeys(data))
			continue
		}
		s.apply(sqltext.DDL(upOnly(string(data))))
	}
	return s
}

func down(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasSuffix(lower, ".down.sql") || strings.HasSuffix(lower, "_down.sql")
}

// upOnly cuts a migration file that holds both directions at its down
// section.
func upOnly(src string) string {
	for _, marker := range []string{"-- +goose Down", "-- migrate:down"} {
		if i := strings.Index(src, marker); i >= 0 {
			src = src[:i]
		}
	}
	return src
}

func (s *Schema) apply(changes []sqltext.Change) {
	for _, c := range changes {
		switch {
		case c.Add != nil:
			s.keys[c.Add.Table] = append(s.keys[c.Add.Table], *c.Add)
		case c.DropTable != "":
			delete(s.keys, c.DropTable)
		case c.Drop != "":
			for t, keys := range s.keys {
				s.keys[t] = slices.DeleteFunc(keys, func(u sqltext.Unique) bool { return u.Name == c.Drop })
			}
		}
	}
}

// Refuses returns a key of table that an INSERT supplying columns makes the
// database refuse a second time: a UNIQUE key or EXCLUDE constraint whose
// columns it all supplies, or a primary key of those columns that is a
// natural key. A primary key named id, or one the database generates, is
// left out: its value is drawn fresh (a serial, a UUID), so a repeated
// insert does not collide.
func (s *Schema) Refuses(table string, columns []string) (sqltext.Unique, bool) {
	if s == nil || table == "" {
		return sqltext.Unique{}, false
	}
	have := make(map[string]bool, len(columns))
	for _, c := range columns {
		have[strings.ToLower(c)] = true
	}
	for _, u := range s.keys[strings.ToLower(table)] {
		if u.Primary && len(u.Columns) == 1 && (u.Generated || u.Columns[0] == "id") {
			continue
		}
		all := true
		for _, c := range u.Columns {
			all = all && have[c]
		}
		if all {
			return u, true
		}
	}
	return sqltext.Unique{}, false
}
