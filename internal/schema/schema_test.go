package schema

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRefuses(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"go.mod": "module example.com/m\n",
		"db/migrations/0001_init.up.sql": `
			CREATE TABLE vouchers_orders (id bigserial PRIMARY KEY, user_id bigint, voucher_id bigint);
			CREATE UNIQUE INDEX one_per_user ON vouchers_orders (user_id, voucher_id);
			CREATE TABLE completions (order_id bigint PRIMARY KEY);
			CREATE TABLE grants (id uuid PRIMARY KEY, user_id bigint, CONSTRAINT grants_user UNIQUE (user_id));`,
		"db/migrations/0001_init.down.sql": `CREATE UNIQUE INDEX never ON ledger (user_id);`,
		"db/migrations/0002_drop.up.sql":   `ALTER TABLE grants DROP CONSTRAINT grants_user;`,
		"sql/goose/20240101_spots.sql":     "-- +goose Up\nCREATE UNIQUE INDEX reserved ON spots (spot_id) WHERE state = 'reserved';\n-- +goose Down\nCREATE UNIQUE INDEX gone ON spots (day);\n",
		"vendor/x/schema.sql":              `CREATE UNIQUE INDEX vendored ON ledger (user_id);`,
		"testdata/schema.sql":              `CREATE UNIQUE INDEX fixture ON ledger (user_id);`,
		"internal/app/main.go":             "package app\n",
	})
	s := ForFile(filepath.Join(root, "internal", "app", "main.go"))
	for _, c := range []struct {
		table string
		cols  []string
		want  string
	}{
		{"vouchers_orders", []string{"user_id", "voucher_id", "amount"}, "one_per_user"},
		{"VOUCHERS_ORDERS", []string{"user_id"}, ""},
		{"vouchers_orders", []string{"id", "amount"}, ""}, // a serial key is drawn fresh
		{"completions", []string{"order_id"}, "completions(order_id)"},
		{"grants", []string{"id", "user_id"}, ""}, // dropped by 0002; id is drawn fresh
		{"spots", []string{"spot_id", "state"}, "reserved"},
		{"spots", []string{"day"}, ""},      // only in the goose Down section
		{"ledger", []string{"user_id"}, ""}, // down, vendored and testdata files are not read
	} {
		u, ok := s.Refuses(c.table, c.cols)
		got := ""
		if ok {
			got = u.Name
			if got == "" {
				got = u.Table + "(" + u.Columns[0] + ")"
			}
		}
		if got != c.want {
			t.Errorf("Refuses(%s, %v) = %q, want %q", c.table, c.cols, got, c.want)
		}
	}
	if again := ForFile(filepath.Join(root, "go.mod")); again != s {
		t.Errorf("the module's schema was read twice")
	}
	if s := ForFile(filepath.Join(string(filepath.Separator), "no", "module", "here.go")); s == nil {
		t.Errorf("no schema for a file outside any module")
	}
}

// TestEntSchema reads the migration schema ent generated for the test
// module's client, and a column marked unique.
func TestEntSchema(t *testing.T) {
	generated, err := os.ReadFile(filepath.Join("..", "..", "testdata", "src", "sqlcall", "entgen", "ent", "migrate", "schema.go"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	write(t, root, map[string]string{
		"go.mod":                  "module example.com/m\n",
		"ent/migrate/schema.go":   string(generated),
		"other/migrate/schema.go": "package migrate\n\nvar T = &schema.Table{Name: \"ledger\", Indexes: nil}\n",
		"pkg/ent/migrate/schema.go": `package migrate

import "entgo.io/ent/dialect/sql/schema"

var (
	CodesColumns = []*schema.Column{{Name: "id", Increment: true}, {Name: "code", Unique: true}}
	CodesTable   = &schema.Table{Name: "codes", Columns: CodesColumns, PrimaryKey: []*schema.Column{CodesColumns[0]}}
)
`,
		"main.go": "package main\n",
	})
	s := ForFile(filepath.Join(root, "main.go"))
	for _, c := range []struct {
		table string
		cols  []string
		want  bool
	}{
		{"grants", []string{"user_id", "voucher_id"}, true},
		{"grants", []string{"user_id"}, false},
		{"orders", []string{"id", "user_id"}, false}, // an Increment key is drawn fresh
		{"codes", []string{"code"}, true},
		{"ledger", []string{"user_id"}, false},
	} {
		if _, ok := s.Refuses(c.table, c.cols); ok != c.want {
			t.Errorf("Refuses(%s, %v) = %v, want %v", c.table, c.cols, ok, c.want)
		}
	}
}
