package unfencedwrite

import (
	"strings"
	"testing"
)

func TestAddFence(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		store    bool
	}{
		{"UPDATE t SET a = $1 WHERE id = $2", "UPDATE t SET a = $1, fencing_token = $3 WHERE id = $2 AND fencing_token < $3", true},
		{"UPDATE t SET a = 1\n\tWHERE id = $1", "UPDATE t SET a = 1, fencing_token = $2\n\tWHERE id = $1 AND fencing_token < $2", true},
		{"UPDATE t SET a = 1 WHERE id = $1 RETURNING a", "", true},
		{"UPDATE t SET a = (SELECT b FROM u WHERE c = 1) WHERE id = $1", "", true},
		{"UPDATE t SET fencing_token = $2 WHERE id = $1", "UPDATE t SET fencing_token = $2 WHERE id = $1 AND fencing_token < $3", false},
	} {
		got, ok := addFence(tc.in, "fencing_token", 1+strings.Count(tc.in, "$"), tc.store)
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("addFence(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
