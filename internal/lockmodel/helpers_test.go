package lockmodel

import "testing"

func TestFuncNames(t *testing.T) {
	s := funcNames{}
	if err := s.Set("example.com/lock.Acquire, example.com/lock.(*Lease).Release"); err != nil {
		t.Fatal(err)
	}
	if got, want := s.String(), "example.com/lock.Acquire,example.com/lock.Lease.Release"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	for _, bad := range []string{"Acquire", "example.com/lock", "example.com/lock.", "lock .Acquire"} {
		if err := s.Set(bad); err == nil {
			t.Errorf("Set(%q) = nil, want an error", bad)
		}
	}
}
