package sqltext

import (
	"reflect"
	"testing"
)

func ph(text string, n int) Operand { return Operand{Kind: OpPlaceholder, Text: text, Placeholder: n} }

func named(text string, n int) Operand {
	return Operand{Kind: OpPlaceholder, Text: text, Placeholder: n, Name: text[1:]}
}

func lit(text string) Operand  { return Operand{Kind: OpLiteral, Text: text} }
func col(text string) Operand  { return Operand{Kind: OpColumn, Text: text} }
func expr(text string) Operand { return Operand{Kind: OpExpr, Text: text} }

func eq(c string, o Operand) Cond        { return Cond{Column: c, Op: "=", Operand: o} }
func cmp(c, op string, o Operand) Cond   { return Cond{Column: c, Op: op, Operand: o} }
func set(c string, o Operand) Assign     { return Assign{Column: c, Value: o} }
func setSelf(c string, o Operand) Assign { return Assign{Column: c, Value: o, RefsSelf: true} }
func conds(c ...Cond) []Cond             { return c }
func sets(a ...Assign) []Assign          { return a }
func cols(c ...string) []string          { return c }

type parseCase struct {
	name string
	src  string
	want Stmt
}

// parseCases is shared with the fuzz test as its seed corpus.
var parseCases = []parseCase{
	// UPDATE
	{"update fenced", `UPDATE locks SET owner = $1, fencing_token = $2 WHERE id = $3 AND fencing_token < $2`, Stmt{
		Kind: Update, Table: "locks", Set: sets(set("owner", ph("$1", 1)), set("fencing_token", ph("$2", 2))),
		HasWhere: true, Where: conds(eq("id", ph("$3", 3)), cmp("fencing_token", "<", ph("$2", 2))), Placeholders: 3}},
	{"update casts", `UPDATE t SET v = $1::bigint WHERE id = $2::uuid AND token <= CAST($3 AS bigint)`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("v", ph("$1::bigint", 1))),
		HasWhere: true, Where: conds(eq("id", ph("$2::uuid", 2)), cmp("token", "<=", ph("CAST($3 AS bigint)", 3))), Placeholders: 3}},
	{"update lower case qualified alias", `update public.Orders o set o.status = 'DONE' where o.id = ? and o.version = ?`, Stmt{
		Kind: Update, Table: "orders", Set: sets(set("status", lit("'DONE'"))),
		HasWhere: true, Where: conds(eq("id", ph("?", 1)), eq("version", ph("?", 2))), Placeholders: 2}},
	{"update only self reference", `UPDATE ONLY accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, Stmt{
		Kind: Update, Table: "accounts", Set: sets(setSelf("balance", expr("balance - $1"))),
		HasWhere: true, Where: conds(eq("id", ph("$2", 2)), cmp("balance", ">=", ph("$1", 1))), Placeholders: 2}},
	{"update as alias named", `UPDATE inventory AS i SET stock = i.stock - 1, updated_at = NOW() WHERE i.sku = :sku AND i.stock > 0`, Stmt{
		Kind: Update, Table: "inventory", Set: sets(setSelf("stock", expr("i.stock - 1")), set("updated_at", expr("NOW()"))),
		HasWhere: true, Where: conds(eq("sku", named(":sku", 1)), cmp("stock", ">", lit("0"))), Placeholders: 1}},
	{"update from", `UPDATE jobs SET state = 'running', n = s.n FROM claimed s WHERE jobs.id = s.id`, Stmt{
		Kind: Update, Table: "jobs", Set: sets(set("state", lit("'running'")), set("n", col("s.n"))),
		HasWhere: true, Where: conds(eq("id", col("s.id")))}},
	{"update mysql backticks limit", "UPDATE `orders` SET `status` = ? WHERE `id` = ? LIMIT 1", Stmt{
		Kind: Update, Table: "orders", Set: sets(set("status", ph("?", 1))),
		HasWhere: true, Where: conds(eq("id", ph("?", 2))), Placeholders: 2}},
	{"update double quoted", `UPDATE "Orders" SET "Status" = $1 WHERE "Id" = $2`, Stmt{
		Kind: Update, Table: "orders", Set: sets(set("status", ph("$1", 1))),
		HasWhere: true, Where: conds(eq("id", ph("$2", 2))), Placeholders: 2}},
	{"update brackets sql server", `UPDATE [dbo].[Orders] SET [Status] = @p1 WHERE [Id] = @p2 AND [Token] < @p3`, Stmt{
		Kind: Update, Table: "orders", Set: sets(set("status", ph("@p1", 1))),
		HasWhere: true, Where: conds(eq("id", ph("@p2", 2)), cmp("token", "<", ph("@p3", 3))), Placeholders: 3}},
	{"update at names", `UPDATE t SET a = @a WHERE id = @id AND a <> @a`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", named("@a", 1))),
		HasWhere: true, Where: conds(eq("id", named("@id", 2)), cmp("a", "<>", named("@a", 1))), Placeholders: 2}},
	{"update named version", `UPDATE docs SET body = :body, version = version + 1 WHERE id = :id AND version = :version`, Stmt{
		Kind: Update, Table: "docs", Set: sets(set("body", named(":body", 1)), setSelf("version", expr("version + 1"))),
		HasWhere: true, Where: conds(eq("id", named(":id", 2)), eq("version", named(":version", 3))), Placeholders: 3}},
	{"update sqlite numbered", `UPDATE t SET a = ?2 WHERE id = ?1`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", ph("?2", 2))),
		HasWhere: true, Where: conds(eq("id", ph("?1", 1))), Placeholders: 2}},
	{"update tuple", `UPDATE t SET (owner, token) = ($1, $2) WHERE id = $3`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("owner", ph("$1", 1)), set("token", ph("$2", 2))),
		HasWhere: true, Where: conds(eq("id", ph("$3", 3))), Placeholders: 3}},
	{"update tuple subquery", `UPDATE t SET (a, b) = (SELECT a, b FROM u WHERE u.id = t.id)`, Stmt{
		Kind: Update, Table: "t", Set: sets(
			setSelf("a", expr("(SELECT a, b FROM u WHERE u.id = t.id)")),
			setSelf("b", expr("(SELECT a, b FROM u WHERE u.id = t.id)")))}},
	{"update case value", `UPDATE t SET a = CASE WHEN b > 0 THEN 1 ELSE 2 END, c = ? WHERE id = ?`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", expr("CASE WHEN b > 0 THEN 1 ELSE 2 END")), set("c", ph("?", 1))),
		HasWhere: true, Where: conds(eq("id", ph("?", 2))), Placeholders: 2}},
	{"update distinct from value", `UPDATE t SET changed = a IS DISTINCT FROM b WHERE id = 1`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("changed", expr("a IS DISTINCT FROM b"))),
		HasWhere: true, Where: conds(eq("id", lit("1")))}},
	{"update default and numbers", `UPDATE t SET a = DEFAULT, r = .5, h = 0xFF, n = -1, d = DATE '2020-01-01' WHERE TRUE`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", expr("DEFAULT")), set("r", lit(".5")), set("h", lit("0xFF")),
			set("n", lit("-1")), set("d", lit("DATE '2020-01-01'"))),
		HasWhere: true}},
	{"update top", `UPDATE TOP (10) t SET a = 1 WHERE b = 2`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", lit("1"))), HasWhere: true, Where: conds(eq("b", lit("2")))}},
	{"update holes", `UPDATE __hole1__ SET status = $1 WHERE id IN (__hole2__)`, Stmt{
		Kind: Update, Table: "__hole1__", Set: sets(set("status", ph("$1", 1))),
		HasWhere: true, Where: conds(cmp("id", "IN", col("(__hole2__)"))), Placeholders: 1}},
	{"update whitespace normalised", "UPDATE t SET v = v\n\t+   1 /* c */ * 2 WHERE id = $1", Stmt{
		Kind: Update, Table: "t", Set: sets(setSelf("v", expr("v + 1 * 2"))),
		HasWhere: true, Where: conds(eq("id", ph("$1", 1))), Placeholders: 1}},
	{"update current of", `UPDATE t SET a = 1 WHERE CURRENT OF c`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", lit("1"))), HasWhere: true, WhereOpaque: true}},
	{"update sqlite or replace", `UPDATE OR REPLACE t SET a = ?`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", ph("?", 1))), Placeholders: 1}},
	{"update no where", `UPDATE t SET a = a`, Stmt{Kind: Update, Table: "t", Set: sets(setSelf("a", col("a")))}},

	// WHERE shapes
	{"where parenthesised conjuncts", `SELECT * FROM jobs WHERE (id = ?) AND (status = 'PENDING')`, Stmt{
		Kind: Select, Table: "jobs", HasWhere: true,
		Where: conds(eq("id", ph("?", 1)), eq("status", lit("'PENDING'"))), Placeholders: 1}},
	{"where nested and groups", `DELETE FROM t WHERE ((id = $1) AND (v = $2 AND (w = $3)))`, Stmt{
		Kind: Delete, Table: "t", HasWhere: true,
		Where: conds(eq("id", ph("$1", 1)), eq("v", ph("$2", 2)), eq("w", ph("$3", 3))), Placeholders: 3}},
	{"where in list and is null", `SELECT * FROM t WHERE id IN ($1, $2, $3) AND deleted_at IS NULL`, Stmt{
		Kind: Select, Table: "t", HasWhere: true,
		Where: conds(cmp("id", "IN", expr("($1, $2, $3)")), cmp("deleted_at", "IS", lit("NULL"))), Placeholders: 3}},
	{"where in single", `DELETE FROM t WHERE id IN (?)`, Stmt{
		Kind: Delete, Table: "t", HasWhere: true, Where: conds(cmp("id", "IN", ph("(?)", 1))), Placeholders: 1}},
	{"where in subquery", `DELETE FROM t WHERE id IN (SELECT id FROM u WHERE x = ?)`, Stmt{
		Kind: Delete, Table: "t", HasWhere: true, WhereOpaque: true,
		Where: conds(cmp("id", "IN", expr("(SELECT id FROM u WHERE x = ?)"))), Placeholders: 1}},
	{"where is not variants", `SELECT * FROM t WHERE a IS NOT NULL AND b IS NOT DISTINCT FROM $1 AND c IS TRUE`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, Where: conds(
			cmp("a", "IS NOT", lit("NULL")), cmp("b", "IS NOT DISTINCT FROM", ph("$1", 1)), cmp("c", "IS", lit("TRUE"))),
		Placeholders: 1}},
	{"where between", `SELECT * FROM t WHERE ts BETWEEN $1 AND $2 AND id = $3`, Stmt{
		Kind: Select, Table: "t", HasWhere: true,
		Where: conds(cmp("ts", "BETWEEN", expr("$1 AND $2")), eq("id", ph("$3", 3))), Placeholders: 3}},
	{"where negated keyword ops", `SELECT * FROM t WHERE a NOT BETWEEN 1 AND 2 AND b NOT IN (1, 2) AND c LIKE 'x%' AND d NOT ILIKE $1 AND e SIMILAR TO 'y'`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, Where: conds(
			cmp("a", "NOT BETWEEN", expr("1 AND 2")), cmp("b", "NOT IN", expr("(1, 2)")), cmp("c", "LIKE", lit("'x%'")),
			cmp("d", "NOT ILIKE", ph("$1", 1)), cmp("e", "SIMILAR TO", lit("'y'"))),
		Placeholders: 1}},
	{"where like escape", `SELECT * FROM t WHERE name LIKE 'a\%%' ESCAPE '\' AND id = $1`, Stmt{
		Kind: Select, Table: "t", HasWhere: true,
		Where: conds(cmp("name", "LIKE", expr(`'a\%%' ESCAPE '\'`)), eq("id", ph("$1", 1))), Placeholders: 1}},
	{"where other comparison ops", `SELECT * FROM t WHERE a != 1 AND b == 2 AND c <=> NULL AND d >= ? AND e ~ '^x'`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, Where: conds(
			cmp("a", "!=", lit("1")), eq("b", lit("2")), cmp("c", "<=>", lit("NULL")), cmp("d", ">=", ph("?", 1)), cmp("e", "~", lit("'^x'"))),
		Placeholders: 1}},
	{"where top-level or", `UPDATE t SET a = 1 WHERE id = $1 OR token < $2`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", lit("1"))), HasWhere: true, WhereOpaque: true, Placeholders: 2}},
	{"where or after and", `SELECT * FROM t WHERE a = 1 AND b = 2 OR c = 3`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, WhereOpaque: true}},
	{"where or in group", `UPDATE t SET a = 1 WHERE id = $1 AND (token < $2 OR token IS NULL)`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", lit("1"))), HasWhere: true, WhereOpaque: true,
		Where: conds(eq("id", ph("$1", 1))), Placeholders: 2}},
	{"where mysql pipes or", `SELECT * FROM t WHERE a = 1 || b = 2`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, WhereOpaque: true}},
	{"where function on column", `SELECT * FROM users WHERE lower(email) = $1 AND org = $2`, Stmt{
		Kind: Select, Table: "users", HasWhere: true, WhereOpaque: true,
		Where: conds(eq("org", ph("$2", 2))), Placeholders: 2}},
	{"where cast on column", `SELECT * FROM t WHERE x::text = $1`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, WhereOpaque: true, Placeholders: 1}},
	{"where json path", `SELECT * FROM t WHERE data->>'owner' = $1 AND data ?| array['a'] AND id = $2`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, WhereOpaque: true,
		Where: conds(eq("id", ph("$2", 2))), Placeholders: 2}},
	{"where reversed", `UPDATE t SET a = 1 WHERE $1 > fencing_token AND now() < expires_at AND 0 <= stock`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", lit("1"))), HasWhere: true,
		Where:        conds(cmp("fencing_token", "<", ph("$1", 1)), cmp("expires_at", ">", expr("now()")), cmp("stock", ">=", lit("0"))),
		Placeholders: 1}},
	{"where exists and not", `DELETE FROM t WHERE EXISTS (SELECT 1 FROM u) AND NOT done AND id = ?`, Stmt{
		Kind: Delete, Table: "t", HasWhere: true, WhereOpaque: true, Where: conds(eq("id", ph("?", 1))), Placeholders: 1}},
	{"where subquery comparison", `UPDATE t SET a = ? WHERE id = ? AND (SELECT count(*) FROM u) > 0`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", ph("?", 1))), HasWhere: true, WhereOpaque: true,
		Where: conds(eq("id", ph("?", 2))), Placeholders: 2}},
	{"where trivially true", `SELECT * FROM t WHERE 1=1 AND id = ? AND TRUE`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, Where: conds(eq("id", ph("?", 1))), Placeholders: 1}},
	{"where any array", `SELECT count(*) FROM orders WHERE status = ANY($1::text[]) AND id = ($2)`, Stmt{
		Kind: Select, Table: "orders", HasWhere: true,
		Where: conds(eq("status", expr("ANY($1::text[])")), eq("id", ph("($2)", 2))), Placeholders: 2}},
	{"where case operand", `SELECT * FROM t WHERE a = CASE WHEN b = 1 AND c = 2 THEN 1 ELSE 2 END AND d = 3`, Stmt{
		Kind: Select, Table: "t", HasWhere: true,
		Where: conds(eq("a", expr("CASE WHEN b = 1 AND c = 2 THEN 1 ELSE 2 END")), eq("d", lit("3")))}},
	{"where empty", `SELECT * FROM t WHERE`, Stmt{Kind: Select, Table: "t", HasWhere: true, WhereOpaque: true}},
	{"where missing operand", `DELETE FROM t WHERE id =`, Stmt{Kind: Delete, Table: "t", HasWhere: true, WhereOpaque: true}},
	{"where trailing and", `DELETE FROM t WHERE id = 1 AND`, Stmt{
		Kind: Delete, Table: "t", HasWhere: true, WhereOpaque: true, Where: conds(eq("id", lit("1")))}},
	{"where empty conjunct", `DELETE FROM t WHERE id = 1 AND AND ()`, Stmt{
		Kind: Delete, Table: "t", HasWhere: true, WhereOpaque: true, Where: conds(eq("id", lit("1")))}},

	// DELETE
	{"delete returning", `DELETE FROM sessions WHERE expires_at < NOW() AND user_id = $1 RETURNING id`, Stmt{
		Kind: Delete, Table: "sessions", HasWhere: true,
		Where: conds(cmp("expires_at", "<", expr("NOW()")), eq("user_id", ph("$1", 1))), Returning: true, Placeholders: 1}},
	{"delete using", `DELETE FROM orders o USING customers c WHERE o.customer_id = c.id AND c.banned`, Stmt{
		Kind: Delete, Table: "orders", HasWhere: true, WhereOpaque: true, Where: conds(eq("customer_id", col("c.id")))}},
	{"delete mysql multi-table alias", `DELETE o FROM orders o JOIN items i ON i.order_id = o.id WHERE o.id = ?`, Stmt{
		Kind: Delete, Table: "orders", HasWhere: true, Where: conds(eq("id", ph("?", 1))), Placeholders: 1}},
	{"delete sql server without from", `DELETE t WHERE id = @p1`, Stmt{
		Kind: Delete, Table: "t", HasWhere: true, Where: conds(eq("id", ph("@p1", 1))), Placeholders: 1}},
	{"delete mysql order limit", `DELETE LOW_PRIORITY FROM logs WHERE ts < ? ORDER BY ts LIMIT 1000`, Stmt{
		Kind: Delete, Table: "logs", HasWhere: true, Where: conds(cmp("ts", "<", ph("?", 1))), Placeholders: 1}},

	// INSERT / REPLACE / upserts
	{"insert multi values", `INSERT INTO events (id, kind, payload) VALUES ($1, $2, $3), ($4, $5, $6)`, Stmt{
		Kind: Insert, Table: "events", Columns: cols("id", "kind", "payload"), Placeholders: 6}},
	{"insert select", `INSERT INTO archive (id, body) SELECT id, body FROM messages WHERE created_at < $1`, Stmt{
		Kind: Insert, Table: "archive", Columns: cols("id", "body"), Placeholders: 1}},
	{"insert default values", `INSERT INTO public.t DEFAULT VALUES RETURNING id`, Stmt{
		Kind: Insert, Table: "t", Returning: true}},
	{"insert mysql set", `INSERT INTO t SET a = ?, b = ?`, Stmt{
		Kind: Insert, Table: "t", Columns: cols("a", "b"), Placeholders: 2}},
	{"replace into", `REPLACE INTO kv (k, v) VALUES (?, ?)`, Stmt{
		Kind: Replace, Table: "kv", Columns: cols("k", "v"), Placeholders: 2}},
	{"insert ignore", `INSERT IGNORE INTO t (a) VALUES (?)`, Stmt{
		Kind: Insert, Table: "t", Columns: cols("a"), OnConflict: "nothing", Placeholders: 1}},
	{"insert or ignore", `INSERT OR IGNORE INTO t (a) VALUES (?)`, Stmt{
		Kind: Insert, Table: "t", Columns: cols("a"), OnConflict: "nothing", Placeholders: 1}},
	{"insert or replace", `insert or replace into t (a) values (?)`, Stmt{
		Kind: Insert, Table: "t", Columns: cols("a"), OnConflict: "update", Placeholders: 1}},
	{"upsert cockroach", `UPSERT INTO t (a) VALUES (1)`, Stmt{
		Kind: Insert, Table: "t", Columns: cols("a"), OnConflict: "update"}},
	{"on conflict do nothing", `INSERT INTO locks (name, owner) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, Stmt{
		Kind: Insert, Table: "locks", Columns: cols("name", "owner"), OnConflict: "nothing", ConflictTarget: cols("name"), Placeholders: 2}},
	{"on conflict index predicate", `INSERT INTO t (a) VALUES (1) ON CONFLICT (a) WHERE a > 0 DO NOTHING`, Stmt{
		Kind: Insert, Table: "t", Columns: cols("a"), OnConflict: "nothing", ConflictTarget: cols("a")}},
	{"on conflict constraint do update where", `INSERT INTO leases AS l (name, owner, token) VALUES ($1, $2, $3)
		ON CONFLICT ON CONSTRAINT leases_pkey DO UPDATE SET owner = EXCLUDED.owner, token = EXCLUDED.token, n = l.n + 1
		WHERE l.token < EXCLUDED.token RETURNING token`, Stmt{
		Kind: Insert, Table: "leases", Columns: cols("name", "owner", "token"), OnConflict: "update",
		Set:      sets(set("owner", col("EXCLUDED.owner")), set("token", col("EXCLUDED.token")), setSelf("n", expr("l.n + 1"))),
		HasWhere: true, Where: conds(cmp("token", "<", col("EXCLUDED.token"))), Returning: true, Placeholders: 3}},
	{"on duplicate key update", `INSERT INTO counters (id, n) VALUES (?, 1) ON DUPLICATE KEY UPDATE n = n + 1, updated = VALUES(updated)`, Stmt{
		Kind: Insert, Table: "counters", Columns: cols("id", "n"), OnConflict: "update",
		Set: sets(setSelf("n", expr("n + 1")), set("updated", expr("VALUES(updated)"))), Placeholders: 1}},
	{"on duplicate key row alias", `INSERT INTO t (a, b) VALUES (?, ?) AS new ON DUPLICATE KEY UPDATE b = new.b`, Stmt{
		Kind: Insert, Table: "t", Columns: cols("a", "b"), OnConflict: "update", Set: sets(set("b", col("new.b"))), Placeholders: 2}},
	{"insert select join then on conflict", `INSERT INTO t (a) SELECT x.a FROM x JOIN y ON x.id = y.id ON CONFLICT DO NOTHING`, Stmt{
		Kind: Insert, Table: "t", Columns: cols("a"), OnConflict: "nothing"}},

	// MERGE
	{"merge", `MERGE INTO accounts AS t USING incoming AS s ON t.id = s.id
		WHEN MATCHED AND t.version < s.version THEN UPDATE SET balance = s.balance, version = s.version
		WHEN NOT MATCHED THEN INSERT (id, balance, version) VALUES (s.id, s.balance, s.version)`, Stmt{
		Kind: Merge, Table: "accounts", Columns: cols("id", "balance", "version"),
		Set:      sets(set("balance", col("s.balance")), set("version", col("s.version"))),
		HasWhere: true, Where: conds(cmp("version", "<", col("s.version")))}},
	{"merge two update clauses", `MERGE t USING s ON t.id = s.id
		WHEN MATCHED AND s.del THEN DELETE
		WHEN MATCHED AND t.v < s.v THEN UPDATE SET v = s.v
		WHEN MATCHED THEN UPDATE SET n = CASE WHEN s.n > 0 THEN s.n END`, Stmt{
		Kind: Merge, Table: "t", Set: sets(set("v", col("s.v")), set("n", expr("CASE WHEN s.n > 0 THEN s.n END"))),
		HasWhere: true, WhereOpaque: true, Where: conds(cmp("v", "<", col("s.v")))}},

	// SELECT and locking
	{"select for update skip locked", `SELECT id, payload FROM queue WHERE state = 'ready' ORDER BY id LIMIT 10 FOR UPDATE SKIP LOCKED`, Stmt{
		Kind: Select, Table: "queue", HasWhere: true, Where: conds(eq("state", lit("'ready'"))),
		Locking: "FOR UPDATE", SkipLocked: true}},
	{"select for update of nowait", `SELECT * FROM a JOIN b ON a.id = b.a_id WHERE a.id = $1 FOR UPDATE OF a, b NOWAIT`, Stmt{
		Kind: Select, Table: "a", HasWhere: true, Where: conds(eq("id", ph("$1", 1))),
		Locking: "FOR UPDATE", NoWait: true, Placeholders: 1}},
	{"select for no key update", `select * from t where id = $1 for no key update nowait`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, Where: conds(eq("id", ph("$1", 1))),
		Locking: "FOR NO KEY UPDATE", NoWait: true, Placeholders: 1}},
	{"select for share", `SELECT * FROM t FOR SHARE`, Stmt{Kind: Select, Table: "t", Locking: "FOR SHARE"}},
	{"select for key share", `SELECT * FROM t FOR KEY SHARE SKIP LOCKED`, Stmt{
		Kind: Select, Table: "t", Locking: "FOR KEY SHARE", SkipLocked: true}},
	{"select lock in share mode", `SELECT * FROM t WHERE id = ? LOCK IN SHARE MODE`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, Where: conds(eq("id", ph("?", 1))), Locking: "LOCK IN SHARE MODE", Placeholders: 1}},
	{"select from subquery", `SELECT * FROM (SELECT * FROM t) x WHERE x.a = 1`, Stmt{
		Kind: Select, HasWhere: true, Where: conds(eq("a", lit("1")))}},
	{"select distinct from in list", `SELECT a IS DISTINCT FROM b, EXTRACT(YEAR FROM ts) FROM ONLY t`, Stmt{Kind: Select, Table: "t"}},
	{"select union", `SELECT * FROM t WHERE x = 1 UNION SELECT * FROM u`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, WhereOpaque: true, Where: conds(eq("x", lit("1")))}},
	{"select parenthesised union", `(SELECT id FROM t WHERE a = 1) UNION (SELECT id FROM u)`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, WhereOpaque: true, Where: conds(eq("a", lit("1")))}},
	{"select wrapped", `(((SELECT 1 FROM t FOR UPDATE)))`, Stmt{Kind: Select, Table: "t", Locking: "FOR UPDATE"}},
	{"select subscript slice", `SELECT a[1:2], b[lo:hi] FROM t WHERE id = $1`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, Where: conds(eq("id", ph("$1", 1))), Placeholders: 1}},
	{"select mysql system variable", `SELECT @@tx_isolation`, Stmt{Kind: Select}},
	{"values", `VALUES (1, 2), (3, 4)`, Stmt{Kind: Select}},
	{"table", `TABLE users`, Stmt{Kind: Select, Table: "users"}},

	// CTEs
	{"cte update claims queue", `WITH next AS (SELECT id FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
		UPDATE jobs SET state = 'running', worker = $1 FROM next WHERE jobs.id = next.id RETURNING jobs.id`, Stmt{
		Kind: Update, Table: "jobs", Set: sets(set("state", lit("'running'")), set("worker", ph("$1", 1))),
		HasWhere: true, Where: conds(eq("id", col("next.id"))), Locking: "FOR UPDATE", SkipLocked: true, Returning: true, Placeholders: 1}},
	{"cte recursive select", `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r`, Stmt{
		Kind: Select, Table: "r"}},
	{"cte writing is kind of main", `WITH d AS (DELETE FROM t WHERE id = $1 RETURNING *) INSERT INTO log SELECT * FROM d`, Stmt{
		Kind: Insert, Table: "log", Placeholders: 1}},
	{"cte materialized", `WITH x AS NOT MATERIALIZED (SELECT 1), y AS (SELECT 2) DELETE FROM t WHERE id IN (SELECT * FROM x)`, Stmt{
		Kind: Delete, Table: "t", HasWhere: true, WhereOpaque: true, Where: conds(cmp("id", "IN", expr("(SELECT * FROM x)")))}},

	// Lexing
	{"dollar quotes and e-strings", `UPDATE t SET body = $$it's $1; $$, note = E'a\'b $2', tag = $tag$x;$$y$tag$ WHERE id = $1`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("body", lit("$$it's $1; $$")), set("note", lit(`E'a\'b $2'`)), set("tag", lit("$tag$x;$$y$tag$"))),
		HasWhere: true, Where: conds(eq("id", ph("$1", 1))), Placeholders: 1}},
	{"mysql backslash escapes", `UPDATE t SET s = 'it\'s ? here', u = "x" WHERE id = ?`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("s", lit(`'it\'s ? here'`)), set("u", col(`"x"`))),
		HasWhere: true, Where: conds(eq("id", ph("?", 1))), Placeholders: 1}},
	{"standard string ending in backslash", `UPDATE t SET p = 'C:\' WHERE id = $1`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("p", lit(`'C:\'`))), HasWhere: true, Where: conds(eq("id", ph("$1", 1))), Placeholders: 1}},
	{"doubled quotes", `UPDATE t SET s = 'it''s', "we""ird" = 1 WHERE id = N'x'`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("s", lit(`'it''s'`)), set(`we"ird`, lit("1"))),
		HasWhere: true, Where: conds(eq("id", lit("N'x'")))}},
	{"comments", "/* leading ? */ UPDATE t -- why ?\n SET a = ? /* inline ? */ WHERE id = ? -- trailing ?", Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", ph("?", 1))), HasWhere: true, Where: conds(eq("id", ph("?", 2))), Placeholders: 2}},
	{"named cast", `UPDATE t SET a = :a::int WHERE id = :id`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", Operand{Kind: OpPlaceholder, Text: ":a::int", Placeholder: 1, Name: "a"})),
		HasWhere: true, Where: conds(eq("id", named(":id", 2))), Placeholders: 2}},
	{"sqlite dollar name", `DELETE FROM t WHERE id = $id`, Stmt{
		Kind: Delete, Table: "t", HasWhere: true, Where: conds(eq("id", named("$id", 1))), Placeholders: 1}},
	{"sql server no space", `UPDATE t SET a = 1 WHERE token<@p1`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", lit("1"))), HasWhere: true, Where: conds(cmp("token", "<", ph("@p1", 1))), Placeholders: 1}},
	{"repeated numbered", `SELECT * FROM t WHERE a = $2 AND b = $2 AND c = $1`, Stmt{
		Kind: Select, Table: "t", HasWhere: true, Where: conds(eq("a", ph("$2", 2)), eq("b", ph("$2", 2)), eq("c", ph("$1", 1))), Placeholders: 2}},
	{"trailing statements ignored", `SELECT 1; DELETE FROM t`, Stmt{Kind: Select}},
	{"leading empty statements skipped", `;; -- x
		; DELETE FROM t`, Stmt{Kind: Delete, Table: "t"}},

	// Other statements
	{"create table", `CREATE TABLE t (id int PRIMARY KEY)`, Stmt{Kind: Other}},
	{"create policy is not locking", `CREATE POLICY p ON t FOR UPDATE USING (owner = current_user)`, Stmt{Kind: Other}},
	{"set local", `SET LOCAL lock_timeout = '1s'`, Stmt{Kind: Other}},
	{"begin", `begin`, Stmt{Kind: Other}},
	{"explain", `EXPLAIN ANALYZE UPDATE t SET a = $1`, Stmt{Kind: Other, Placeholders: 1}},
	{"with without main verb", `WITH x AS (SELECT 1)`, Stmt{}},

	// Junk
	{"empty", ``, Stmt{}},
	{"blank", " \n\t ", Stmt{}},
	{"only comments", "-- a\n/* b */ -- c", Stmt{}},
	{"unterminated comment", `/* UPDATE t SET a = 1`, Stmt{}},
	{"unterminated string", `UPDATE t SET a = 'x WHERE id = 1`, Stmt{Kind: Update, Table: "t", Set: sets(set("a", lit("'x WHERE id = 1")))}},
	{"unterminated dollar quote", `UPDATE t SET a = $$x WHERE id = 1`, Stmt{Kind: Update, Table: "t", Set: sets(set("a", lit("$$x WHERE id = 1")))}},
	{"unterminated quoted ident", `UPDATE "t SET a = 1`, Stmt{Kind: Update, Table: "t set a = 1"}},
	{"unterminated paren", `UPDATE t SET a = (1 WHERE id = 1`, Stmt{Kind: Update, Table: "t", Set: sets(set("a", expr("(1 WHERE id = 1")))}},
	{"fmt missing", `%!s(MISSING)`, Stmt{}},
	{"fmt missing in statement", `UPDATE t SET a = %!d(MISSING) WHERE id = %!v(MISSING)`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", expr("%!d(MISSING)"))), HasWhere: true, Where: conds(eq("id", expr("%!v(MISSING)")))}},
	{"punctuation", `)))((( ,,, ... ::: @@ ?? $ [[ ]] {} \`, Stmt{Placeholders: 2}},
	{"verb only", `UPDATE`, Stmt{Kind: Update}},
	{"set without value", `UPDATE t SET a = WHERE id = 1`, Stmt{
		Kind: Update, Table: "t", Set: sets(set("a", Operand{})), HasWhere: true, Where: conds(eq("id", lit("1")))}},
	{"fragment", `WHERE id = $1`, Stmt{Placeholders: 1}},
	{"insert only", `INSERT INTO`, Stmt{Kind: Insert}},
	{"merge only", `MERGE`, Stmt{Kind: Merge}},
	{"on conflict truncated", `INSERT INTO t VALUES (1) ON CONFLICT DO`, Stmt{Kind: Insert, Table: "t"}},
	{"empty parens", `()`, Stmt{}},
	{"lone quote", `'`, Stmt{}},
	{"e quote", `E'`, Stmt{}},
	{"unclosed subscript", `UPDATE [ SET a = 1`, Stmt{Kind: Update}},
}

func TestParse(t *testing.T) {
	for _, c := range parseCases {
		t.Run(c.name, func(t *testing.T) {
			got := Parse(c.src)
			got.PlaceholderStyle = "" // TestPlaceholderStyle's
			got.Values = nil          // TestValues's
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Parse(%q)\n got %+v\nwant %+v", c.src, got, c.want)
			}
		})
	}
}

func TestParseAll(t *testing.T) {
	got := ParseAll("BEGIN; UPDATE t SET a = 1 WHERE id = $1;\n-- done\nCOMMIT; ;")
	kinds := []Kind{Other, Update, Other}
	if len(got) != len(kinds) {
		t.Fatalf("ParseAll: got %d statements, want %d: %+v", len(got), len(kinds), got)
	}
	for i, k := range kinds {
		if got[i].Kind != k {
			t.Errorf("statement %d: kind %v, want %v", i, got[i].Kind, k)
		}
	}
	if got[1].Placeholders != 1 || len(got[1].Where) != 1 {
		t.Errorf("statement 1: %+v", got[1])
	}
	// Placeholder positions restart with each statement.
	got = ParseAll("SELECT * FROM a WHERE x = ?; SELECT * FROM b WHERE y = ?")
	if len(got) != 2 || got[1].Where[0].Operand.Placeholder != 1 {
		t.Errorf("positions not per statement: %+v", got)
	}
	// Semicolons in quotes, comments and dollar quotes do not split.
	got = ParseAll("SELECT ';'; SELECT $$;$$; SELECT 1 /* ; */; SELECT \"a;b\" -- ;\n")
	if len(got) != 4 {
		t.Errorf("got %d statements, want 4: %+v", len(got), got)
	}
	if got := ParseAll(" -- nothing\n ;;"); got != nil {
		t.Errorf("ParseAll of nothing = %+v, want nil", got)
	}
}

func TestKind(t *testing.T) {
	want := map[Kind]struct {
		name   string
		writes bool
	}{
		Unknown: {"Unknown", false}, Select: {"Select", false}, Insert: {"Insert", true}, Update: {"Update", true},
		Delete: {"Delete", true}, Merge: {"Merge", true}, Replace: {"Replace", true}, Other: {"Other", false},
		Kind(42): {"Kind(42)", false},
	}
	for k, w := range want {
		if k.String() != w.name || k.Writes() != w.writes {
			t.Errorf("%d: String %q Writes %v, want %q %v", int(k), k.String(), k.Writes(), w.name, w.writes)
		}
	}
}

func TestPlaceholderStyle(t *testing.T) {
	for src, want := range map[string]string{
		`UPDATE t SET a = $1 WHERE id = $2`:           "$3",
		`INSERT INTO t (a, b) VALUES (?, ?)`:          "?",
		`UPDATE t SET a = :a WHERE id = :id`:          ":expected",
		`UPDATE t SET a = @a WHERE id = @id`:          "@expected",
		`UPDATE t SET a = 1 WHERE id = 2`:             "$1",
		`SELECT 1`:                                    "$1",
		`UPDATE t SET a = $1::int WHERE id = ANY($2)`: "$3",
	} {
		if got := Parse(src).NextPlaceholder("expected"); got != want {
			t.Errorf("NextPlaceholder(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestValues(t *testing.T) {
	for _, c := range []struct {
		src, column string
		want        string // the operand's text; "-" when none
		target      []string
	}{
		{`INSERT INTO payments (id, order_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, "id", "$1", []string{"id"}},
		{`INSERT INTO payments (id, order_id) VALUES (gen_random_uuid(), $1) ON CONFLICT (order_id) DO NOTHING`, "id", "gen_random_uuid()", []string{"order_id"}},
		{`INSERT INTO t (a, b) VALUES (1, 2), (3, 4)`, "a", "-", nil},
		{`INSERT INTO t (a) SELECT x FROM u`, "a", "-", nil},
		{`INSERT INTO t VALUES (1, 2)`, "a", "-", nil},
		{`INSERT INTO t (a, b) VALUES (1)`, "a", "-", nil},
		{`INSERT INTO t (a) VALUES (?) ON CONFLICT ON CONSTRAINT t_pkey DO NOTHING`, "a", "?", nil},
	} {
		st := Parse(c.src)
		got := "-"
		if o, ok := st.ValueOf(c.column); ok {
			got = o.Text
		}
		if got != c.want || !reflect.DeepEqual(st.ConflictTarget, c.target) {
			t.Errorf("Parse(%q): %s = %q, target %v; want %q, %v", c.src, c.column, got, st.ConflictTarget, c.want, c.target)
		}
	}
}
