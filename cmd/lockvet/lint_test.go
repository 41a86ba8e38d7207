package main

import (
	"errors"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestPackageError(t *testing.T) {
	compiler := "# example.com/p\n# [example.com/p.test]\n/src/p/p.go:27:11: fatal error: x.h: No such file or directory\n   27 | // #include <x.h>\ncompilation terminated.\n"
	for _, tc := range []struct {
		err  error
		want []string
	}{
		{packages.Error{Pos: "/src/p/p.go:3:23", Msg: "cannot use \"x\" as int value"}, []string{"/src/p/p.go:3:23: cannot use \"x\" as int value"}},
		{packages.Error{Msg: "no required module provides package example.com/q"}, []string{"lockvet: no required module provides package example.com/q"}},
		{packages.Error{Msg: compiler}, []string{"/src/p/p.go:27:11: fatal error: x.h: No such file or directory", "   27 | // #include <x.h>", "compilation terminated."}},
		{errors.New("failed gob encoding data"), []string{"lockvet: internal error analysing example.com/p: failed gob encoding data"}},
	} {
		if got := packageError("example.com/p", tc.err); !slices.Equal(got, tc.want) {
			t.Errorf("packageError(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
