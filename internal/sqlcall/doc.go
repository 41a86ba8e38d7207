// Package sqlcall tells which calls run SQL, with which statement text, on
// which handle, with which placeholder arguments, and where their result goes.
//
// Calls are matched by the package path, receiver type and name of the
// function the type checker resolves them to (a static callee or an interface
// method), never by a bare method name; the tables are in table.go:
//
//   - database/sql: Exec, Query and QueryRow, with or without Context, on *DB,
//     *Tx and *Conn; the same on a *Stmt, whose text comes from the Prepare
//     call that made it (followed through local variables and tx.Stmt, not
//     through struct fields).
//   - github.com/jmoiron/sqlx: MustExec, Queryx, QueryRowx, Get, Select (the
//     text after the destination), the Named* calls (their argument binds
//     :name placeholders: Named, not Args), their package-function forms, the
//     Execer and Queryer interfaces, and Stmt and NamedStmt from Preparex and
//     PrepareNamed. Methods promoted from the embedded *sql.DB resolve to
//     database/sql.
//   - github.com/jackc/pgx v5 and v4: Exec, Query and QueryRow on *Conn, Tx,
//     *pgxpool.Pool, *pgxpool.Conn and pgxpool.Tx. Query modes and result
//     formats at the front of the arguments are dropped; pgx.NamedArgs is
//     Named. Batches (Queue, SendBatch) and CopyFrom are not covered.
//   - github.com/zeromicro/go-zero/core/stores/sqlx: Exec and the
//     QueryRow(s)(Partial) calls, with or without Ctx, on a Session (a
//     connection, or the transaction TransactCtx hands its callback, which
//     is InTx); the destination comes before the text.
//   - any method typed ([ctx,] string, ...any) returning database/sql's
//     Result, *Rows or *Row, or pgx's CommandTag, Rows or Row: sqlc's DBTX
//     interface, and wrappers with the signature of the method they wrap.
//   - gorm.io/gorm, and gorm v1 (github.com/jinzhu/gorm), whose *DB has
//     the same chain (its Update takes variadic attrs): raw SQL through
//     (*DB).Exec and Raw, and builder statements, described below.
//   - query builders, as rows of chainrows.go: github.com/Masterminds/squirrel
//     (Update, Insert, Replace, Delete and Select, from the package or a
//     StatementBuilder, run by Exec, Query, QueryRow, Scan and their Context
//     forms). The chain's calls are written out as the builder writes them,
//     with ? placeholders, and read as SQL: Set, SetMap, Where (text, Expr,
//     Eq, NotEq, Lt, LtOrEq, Gt, GtOrEq and And of them), Columns, Values,
//     Options, Suffix; RunWith gives the handle. github.com/uptrace/bun
//     (NewUpdate, NewInsert, NewDelete, NewSelect on a DB, Tx, Conn or IDB,
//     run by Exec or Scan): Model names the table (a BaseModel tag, else the
//     type's name, plural) and, when the chain does not, the columns an
//     INSERT writes; an UPDATE of a model with no Set writes every column by
//     primary key (SetFromValue); Set, Column, Where, WherePK, Returning, On,
//     Ignore and For. A chain that joins paths, an Or, an IN list or a call
//     that is not a row leaves it unknown.
//   - ent, whose builders are generated into the program: rows by their
//     shape (ent.go), methods of <Entity>Client (Update, UpdateOneID,
//     UpdateOne, Create, Delete, DeleteOneID, DeleteOne), <Entity>Update and
//     UpdateOne (Set<Field>, SetNillable<Field>, Add<Field> — a negative
//     delta is written as a decrement —, Clear<Field>, Where, Select) and
//     <Entity>Create (Set<Field>), run by Save, Exec and their X forms, in a
//     package that imports ent. The table and columns are the entity
//     package's Table and Field<Name> constants; predicates are its
//     <Field>, <Field>EQ, NEQ, GT, GTE, LT, LTE, In, NotIn, IsNil, NotNil
//     and And. The count Update and Delete return is the Result; for
//     UpdateOne and DeleteOne, which fail with NotFoundError when their
//     Where matches nothing, the error is. A builder in a client's Tx is
//     InTx. Or, Not, edges and upserts leave it unknown.
//   - xorm (xorm.io/xorm, github.com/go-xorm/xorm), whose chains name their
//     statement last (xorm.go): Where, And, ID, Table and Cols on an Engine
//     or Session, run by Update, Insert, InsertOne or Delete of a bean,
//     whose type names the table (snake case, singular, or its TableName)
//     and, for an Update without Cols, writes from a value; the count they
//     return is the Result. A Delete or Update whose conditions come from a
//     bean is unknown; a Session's Begin is not InTx.
//
// A test checks that every row of these tables names a function of the
// library versions the test module pins.
//
// # Text
//
// QueryText reads string constants, concatenations, package-level variables
// (their initializer, or a //go:embed file), local variables assigned once
// or the same on every path, fmt.Sprintf with a constant format, strings.Join
// of constants, strings.TrimSpace, sqlx.In and Rebind, and calls of the
// package's functions that return one text (ReturnedText). A Sprintf verb
// whose argument is a constant is formatted; any other becomes an identifier
// __hole1__, __hole2__, … so that the statement still parses. Text from other
// packages comes through the TextOf hook; the pass (Analyzer) fills it from
// its QueryText facts, which it exports for the package's exported functions
// and variables with ReturnedText and VarText. Text that is not read leaves
// the call recognized, with Known false and Stmt zero.
//
// # gorm
//
// A builder finisher — Update, UpdateColumn, Updates, UpdateColumns, Save,
// Create, CreateInBatches, Delete, and the reads First, Take, Last and Find —
// gets a Stmt put together from the chain of calls on the *gorm.DB before it,
// as gorm would write it: Model, Table, Where, Not, Or, Clauses and the
// methods that change nothing a check asks about (WithContext, Session,
// Debug, Omit, Limit, …). A *gorm.DB from another call, a phi or a parameter
// is the chain's root, the call's Handle.
//
//   - Kind and Table: from the finisher; the table from Table(name), else the
//     model type's TableName method when its body is in the package, else
//     gorm's default naming, approximated (snake case, regular English
//     plural). A naming strategy set where the DB is opened is not seen.
//   - Set: Update(col, v) and Updates of a map literal (keys sorted, as gorm
//     does); a gorm.Expr value is read as SQL, so version = version + ?
//     refers to itself. Updates of a struct and Save take their columns from
//     a Go value: Set is left empty and SetFromValue is set; with a Where of
//     their own (which may pin those columns) Known is false, unless it only
//     names the row by id (Where("id = ?", o.ID)).
//   - Table(order.TableName()) names the model's table, as the model would.
//   - Where: each Where fragment parsed as the WHERE of a SELECT, a bare
//     column with one value (Where("status", s)), a map literal, and the
//     inline conditions of Delete and the reads (a primary key value is read
//     as id = ?). Or, Not, Scopes, struct conditions and clause expressions
//     make it opaque (WhereOpaque). The primary-key condition gorm adds from a
//     model value with its key set (Model(&order), Save, Delete(&order)) is
//     not in Where, nor is the deleted_at of a soft-deleted model; a Delete of
//     such a model is an UPDATE that this package reports as a DELETE.
//   - Keyed (on Call) when Create inserts a model with a field tagged unique,
//     uniqueIndex or index:name,unique, which the migrated table refuses twice; goctl's inserts
//     are Keyed when the table's key is not auto-increment.
//   - OnConflict from clause.OnConflict (DoNothing → "nothing", else "update")
//     and clause.Insert{Modifier: "IGNORE"}; Returning from clause.Returning;
//     Locking, SkipLocked and NoWait from clause.Locking.
//   - Args: the SET values, then the WHERE arguments, in the order gorm binds
//     them, and the placeholder numbers of Set and Where count the same way;
//     nil when a scope, a struct condition, a named argument or a JOIN or
//     HAVING with arguments makes the order unknown.
//   - InTx: the root is a Begin() result, or the parameter of a function
//     literal passed to db.Transaction. A transaction passed in from another
//     function is not known to be one.
//
// The generics API (gorm.G[T]) and finishers not listed (FirstOrCreate,
// Count, Pluck, Scan after a builder chain) are not covered.
package sqlcall
