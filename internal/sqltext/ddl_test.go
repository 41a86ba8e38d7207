package sqltext

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func describeChanges(cs []Change) string {
	var out []string
	for _, c := range cs {
		switch {
		case c.Add != nil:
			u := c.Add
			s := u.Table + "(" + strings.Join(u.Columns, ",") + ")"
			if u.Name != "" {
				s = u.Name + ":" + s
			}
			if u.Primary {
				s += " pk"
			}
			if u.Generated {
				s += " generated"
			}
			if u.Exclude {
				s += " exclude"
			}
			if u.Where != "" {
				s += " where " + u.Where
			}
			out = append(out, s)
		case c.Drop != "":
			out = append(out, "drop "+c.Drop)
		case c.DropTable != "":
			out = append(out, "drop table "+c.DropTable)
		}
	}
	return strings.Join(out, "; ")
}

var ddlCases = []struct{ src, want string }{
	{`CREATE TABLE IF NOT EXISTS public.vouchers_orders (
		id BIGSERIAL PRIMARY KEY,
		user_id BIGINT NOT NULL REFERENCES users(id),
		voucher_id BIGINT NOT NULL,
		code TEXT UNIQUE,
		CONSTRAINT one_per_user UNIQUE (user_id, voucher_id),
		CHECK (voucher_id > 0)
	)`, "vouchers_orders(id) pk generated; vouchers_orders(code); one_per_user:vouchers_orders(user_id,voucher_id)"},
	{"CREATE TABLE `orders` (\n `id` int NOT NULL AUTO_INCREMENT,\n `order_no` varchar(64),\n PRIMARY KEY (`id`),\n UNIQUE KEY `uk_no` (`order_no`),\n KEY `idx_user` (`user_id`)\n) ENGINE=InnoDB",
		"orders(id) pk generated; uk_no:orders(order_no)"},
	{`CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS one_reservation ON ONLY spots USING btree (spot_id, day DESC) WHERE state = 'reserved'`,
		"one_reservation:spots(spot_id,day) where state = 'reserved'"},
	{`CREATE UNIQUE INDEX ON emails (lower(address))`, ""},
	{`CREATE UNIQUE INDEX idx_prefix ON users (name(10))`, "idx_prefix:users(name)"},
	{`CREATE INDEX idx ON t (a)`, ""},
	{`CREATE TABLE bookings (room_id int, during tstzrange, EXCLUDE USING gist (room_id WITH =, during WITH &&) WHERE (NOT cancelled))`,
		"bookings(room_id,during) exclude where (NOT cancelled)"},
	{`ALTER TABLE ONLY grants ADD CONSTRAINT grants_user_key UNIQUE (user_id), DROP CONSTRAINT old_key`, "grants_user_key:grants(user_id); drop old_key"},
	{`ALTER TABLE t ADD COLUMN IF NOT EXISTS slug text UNIQUE`, "t(slug)"},
	{"ALTER TABLE t ADD UNIQUE INDEX uk_a (a, b)", "uk_a:t(a,b)"},
	{`DROP INDEX IF EXISTS a, b; DROP TABLE t`, "drop a; drop b; drop table t"},
	{`CREATE TABLE t AS SELECT 1`, ""},
	{`CREATE TABLE c (order_id bigint PRIMARY KEY, k uuid DEFAULT gen_random_uuid(), PRIMARY KEY (k))`, "c(order_id) pk; c(k) pk generated"},
	{`CREATE TABLE p (a int, b int, PRIMARY KEY (a, b)); -- +goose Down
	  CREATE TABLE q (x int UNIQUE NULLS NOT DISTINCT)`, "p(a,b) pk; q(x)"},
	{`CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN CREATE TABLE x (a int UNIQUE); END $$ LANGUAGE plpgsql`, ""},
}

func TestDDL(t *testing.T) {
	for _, c := range ddlCases {
		if got := describeChanges(DDL(c.src)); got != c.want {
			t.Errorf("DDL(%q)\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}

func FuzzDDL(f *testing.F) {
	for _, c := range ddlCases {
		f.Add(c.src)
	}
	for _, s := range []string{"CREATE TABLE t (", "CREATE UNIQUE INDEX ON t (", "ALTER TABLE t ADD", "EXCLUDE (", "UNIQUE KEY (", "DROP INDEX ,,,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		got := DDL(src)
		if again := DDL(src); !reflect.DeepEqual(got, again) {
			t.Fatalf("not deterministic: %v then %v", got, again)
		}
		for _, c := range got {
			if c.Add != nil && (c.Add.Table == "" || len(c.Add.Columns) == 0) {
				t.Fatalf("a key with no table or no columns: %s", fmt.Sprint(*c.Add))
			}
		}
	})
}
