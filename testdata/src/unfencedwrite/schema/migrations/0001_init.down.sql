-- A down migration is not the schema: this index does not exist.
CREATE UNIQUE INDEX ledger_once ON ledger_entries (user_id);
