package record

import (
	"go/token"
	"go/types"
	"strings"
)

// Test doubles stand in for an implementation in tests: a call through the
// interface never reaches them in the program, so they take no part in the
// link step. Without this, the mock mockery writes for every repository
// interface would make each interface method's effects disagree.

// doubleFields are the field types the mock generators give their mocks,
// by package path and type name.
var doubleFields = map[string]bool{
	"github.com/stretchr/testify/mock.Mock":         true, // mockery, testify
	"go.uber.org/mock/gomock.Controller":            true, // gomock
	"github.com/golang/mock/gomock.Controller":      true,
	"github.com/gojuno/minimock/v3.Tester":          true, // minimock
	"github.com/vektra/mockery/v2/mocks.Mock":       true,
	"github.com/maxbrunsfeld/counterfeiter/v6.Fake": true,
}

// isDouble reports whether n is a test double: declared in a test file,
// holding a mock generator's state (testify's mock.Mock, gomock's
// Controller, minimock's Tester), or shaped as moq and counterfeiter write
// theirs (a calls record or an invocations map, beside func fields that
// stand in for each method).
func isDouble(fset *token.FileSet, n *types.Named) bool {
	if f := fset.File(n.Obj().Pos()); f != nil && strings.HasSuffix(f.Name(), "_test.go") {
		return true
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	record, stubs := false, false
	for i := range st.NumFields() {
		f := st.Field(i)
		if doubleFields[qualified(derefType(f.Type()))] {
			return true
		}
		_, isFunc := f.Type().Underlying().(*types.Signature)
		switch {
		case f.Name() == "calls" || f.Name() == "invocations":
			record = true
		case isFunc && (strings.HasSuffix(f.Name(), "Func") || strings.HasSuffix(f.Name(), "Stub")):
			stubs = true
		}
	}
	return record && stubs
}

func qualified(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}
