-- The tables the examples write, as the integration test creates them.

CREATE TABLE accounts (
	id     bigint PRIMARY KEY,
	points integer NOT NULL DEFAULT 0
);

CREATE TABLE orders (
	id            bigint PRIMARY KEY,
	customer_id   bigint NOT NULL REFERENCES accounts,
	status        text NOT NULL DEFAULT 'PENDING',
	-- fenced: the token of the lock holder that wrote the row last
	fencing_token bigint NOT NULL DEFAULT 0
);

-- uniquetask: one row per completed order
CREATE TABLE order_completions (
	order_id bigint PRIMARY KEY REFERENCES orders
);
