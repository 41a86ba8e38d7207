package sqltext

import "testing"

func TestAdmitsOne(t *testing.T) {
	for _, c := range []struct {
		src                    string
		conditional, admitsOne bool
	}{
		{`UPDATE orders SET status = 'PAID' WHERE id = $1 AND status = 'PENDING'`, true, true},
		{`UPDATE docs SET body = $2, version = version + 1 WHERE id = $1 AND version = $3`, true, true},
		{`UPDATE orders SET status = 'PAID' WHERE id = $1`, false, false},
		{`UPDATE accounts SET points = points + 10 WHERE id = $1`, false, false},
		{`INSERT INTO t (id, n) VALUES ($1, 1) ON CONFLICT (id) DO UPDATE SET n = t.n + 1 WHERE t.n < 5`, true, true},
		{`INSERT INTO t (id, n) VALUES ($1, 1) ON CONFLICT (id) DO UPDATE SET n = excluded.n`, false, false},
		{`INSERT INTO credits (order_id) VALUES ($1) ON CONFLICT DO NOTHING`, false, true},
		{`INSERT INTO credits (order_id) VALUES ($1)`, false, false},
		{`SELECT status FROM orders WHERE status = 'PENDING'`, false, false},
		{`DELETE FROM orders WHERE status = 'PENDING'`, false, false},
	} {
		st := Parse(c.src)
		if got := st.Conditional(); got != c.conditional {
			t.Errorf("Conditional(%q) = %v", c.src, got)
		}
		if got := st.AdmitsOne(); got != c.admitsOne {
			t.Errorf("AdmitsOne(%q) = %v", c.src, got)
		}
	}
}
