-- The tables package schema writes. lockvet reads every .sql file of the
-- module, so these names are used nowhere else in the test module.
CREATE TABLE coupon_claims (
	id        bigserial PRIMARY KEY,
	user_id   bigint NOT NULL,
	coupon_id bigint NOT NULL,
	CONSTRAINT one_claim_per_user UNIQUE (user_id, coupon_id)
);

CREATE TABLE ledger_entries (
	id      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	user_id bigint NOT NULL,
	amount  bigint NOT NULL
);

CREATE TABLE room_bookings (
	room_id bigint NOT NULL,
	during  tstzrange NOT NULL,
	EXCLUDE USING gist (room_id WITH =, during WITH &&)
);

CREATE TABLE seat_holds (
	id      bigserial PRIMARY KEY,
	seat_id bigint NOT NULL,
	state   text NOT NULL
);
CREATE UNIQUE INDEX one_hold_per_seat ON seat_holds (seat_id) WHERE state = 'held';
