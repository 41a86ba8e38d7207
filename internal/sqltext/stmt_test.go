package sqltext

import "testing"

func TestPins(t *testing.T) {
	for _, c := range []struct {
		src                  string
		cas, admitsOne, lost bool
	}{
		// State machines, versions, values read before, claims.
		{`UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, true, true, false},
		{`UPDATE orders SET status = 'PAID' WHERE id = ? AND status IN ('PENDING', 'FAILED')`, true, true, false},
		{`UPDATE orders SET status = 'PAID' WHERE id = $1 AND status <> 'PAID'`, true, true, false},
		{`UPDATE orders SET status = 'PAID' WHERE id = $1 AND status NOT IN ('PAID', 'CANCELLED')`, true, true, false},
		{`UPDATE docs SET body = $2, version = version + 1 WHERE id = $1 AND version = $3`, true, true, false},
		{`UPDATE accounts SET balance = $2 WHERE id = $1 AND balance = $3`, true, true, false},
		{`UPDATE jobs SET owner = $1 WHERE id = $2 AND owner IS NULL`, true, true, false},
		{`UPDATE jobs SET locked_until = $1 WHERE id = $2 AND locked_until < now()`, true, true, false},
		// Orderings the write advances: fencing tokens, supplied versions.
		{`UPDATE orders SET status = 'PAID', fencing_token = $2 WHERE id = $1 AND fencing_token < $2`, true, false, false},
		{`UPDATE docs SET body = $1, version = $2 WHERE id = $3 AND version <= $2`, true, false, false},
		// Relative changes guarded by their own delta.
		{`UPDATE stock SET n = n - $1 WHERE sku = $2 AND n >= $1`, true, false, false},
		{`UPDATE stock SET n = n - 1 WHERE sku = $1 AND n > 0`, true, false, false},
		{`UPDATE stock s SET n = s.n - 1 WHERE s.sku = $1 AND s.n > 0`, true, false, false},
		{`UPDATE quota SET used = used + 1 WHERE id = $1 AND used < $2`, true, false, false},
		{`UPDATE coupons SET remaining = remaining - ? WHERE id = ? AND remaining > ?`, true, false, false},
		{`INSERT INTO t (id, n) VALUES ($1, 1) ON CONFLICT (id) DO UPDATE SET n = t.n + 1 WHERE t.n < 5`, true, false, false},
		// Tested but not pinned: a lost update.
		{`UPDATE accounts SET balance = $2 WHERE id = $1 AND balance >= 0`, false, false, true},
		{`UPDATE orders SET status = 'PAID' WHERE id = $1 AND status <> 'CANCELLED'`, false, false, true},
		{`UPDATE orders SET status = 'PAID', fencing_token = $1 WHERE id = $3 AND fencing_token < $2`, false, false, true},
		{`UPDATE accounts SET balance = balance - $2 WHERE id = $1 AND balance >= 0`, false, false, true},
		// Not tested at all.
		{`UPDATE orders SET status = 'PAID' WHERE id = $1`, false, false, false},
		{`UPDATE accounts SET points = points + 10 WHERE id = $1`, false, false, false},
		{`INSERT INTO t (id, n) VALUES ($1, 1) ON CONFLICT (id) DO UPDATE SET n = excluded.n`, false, false, false},
		{`INSERT INTO credits (order_id) VALUES ($1) ON CONFLICT DO NOTHING`, false, true, false},
		{`INSERT INTO credits (order_id) VALUES ($1)`, false, false, false},
		{`SELECT status FROM orders WHERE status = 'PENDING'`, false, false, false},
		{`DELETE FROM orders WHERE status = 'PENDING'`, false, false, false},
	} {
		st := Parse(c.src)
		if got := st.CompareAndSet(); got != c.cas {
			t.Errorf("CompareAndSet(%q) = %v", c.src, got)
		}
		if got := st.AdmitsOne(); got != c.admitsOne {
			t.Errorf("AdmitsOne(%q) = %v", c.src, got)
		}
		if _, got := st.LostUpdate(); got != c.lost {
			t.Errorf("LostUpdate(%q) = %v", c.src, got)
		}
	}
}
