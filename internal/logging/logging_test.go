package logging

import (
	"go/importer"
	"go/token"
	"go/types"
	"testing"
)

func TestLogs(t *testing.T) {
	imp := importer.ForCompiler(token.NewFileSet(), "source", nil)
	lookup := func(path, name string) *types.Func {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatal(err)
		}
		return pkg.Scope().Lookup(name).(*types.Func)
	}
	for _, c := range []struct {
		path, name    string
		logs, formats bool
	}{
		{"log", "Printf", true, false},
		{"log", "Fatalf", false, false},
		{"log", "Panicln", false, false},
		{"log/slog", "Warn", true, false},
		{"fmt", "Println", true, false},
		{"fmt", "Fprintf", true, false},
		{"fmt", "Sprintf", false, true},
		{"fmt", "Errorf", false, true},
		{"errors", "New", false, true},
		{"os", "Exit", false, false},
		{"strings", "ToLower", false, false},
	} {
		fn := lookup(c.path, c.name)
		if got := Logs(fn); got != c.logs {
			t.Errorf("Logs(%s.%s) = %v, want %v", c.path, c.name, got, c.logs)
		}
		if got := Formats(fn); got != c.formats {
			t.Errorf("Formats(%s.%s) = %v, want %v", c.path, c.name, got, c.formats)
		}
	}
}

func TestStops(t *testing.T) {
	imp := importer.ForCompiler(token.NewFileSet(), "source", nil)
	pkg := func(path string) *types.Package {
		p, err := imp.Import(path)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	method := func(path, typ, name string) *types.Func {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(pkg(path).Scope().Lookup(typ).Type()), true, pkg(path), name)
		return obj.(*types.Func)
	}
	fn := func(path, name string) *types.Func { return pkg(path).Scope().Lookup(name).(*types.Func) }
	for _, c := range []struct {
		fn   *types.Func
		want bool
	}{
		{fn("os", "Exit"), true},
		{fn("runtime", "Goexit"), true},
		{fn("log", "Fatalf"), true},
		{fn("log", "Panicf"), true},
		{method("testing", "T", "Fatalf"), true},
		{method("testing", "T", "FailNow"), true},
		{method("testing", "T", "Skip"), true},
		{method("testing", "T", "Errorf"), false},
		{method("testing", "T", "Fail"), false},
		{fn("log", "Printf"), false},
		{fn("os", "Getenv"), false},
	} {
		if got := Stops(c.fn); got != c.want {
			t.Errorf("Stops(%s) = %v, want %v", c.fn.FullName(), got, c.want)
		}
	}
}

func TestLoggerMethods(t *testing.T) {
	pkg := types.NewPackage("example.com/app/obs", "obs")
	logger := types.NewNamed(types.NewTypeName(0, pkg, "Logger", nil), types.NewStruct(nil, nil), nil)
	other := types.NewNamed(types.NewTypeName(0, pkg, "Orders", nil), types.NewStruct(nil, nil), nil)
	method := func(recv *types.Named, name string) *types.Func {
		s := types.NewSignatureType(types.NewVar(0, pkg, "l", types.NewPointer(recv)), nil, nil, nil, nil, false)
		return types.NewFunc(0, pkg, name, s)
	}
	for _, c := range []struct {
		fn   *types.Func
		want bool
	}{
		{method(logger, "Errorf"), true},
		{method(logger, "Info"), true},
		{method(logger, "Fatal"), false},
		{method(logger, "Flush"), false},
		{method(other, "Error"), false},
	} {
		if got := Logs(c.fn); got != c.want {
			t.Errorf("Logs(%s) = %v, want %v", c.fn.FullName(), got, c.want)
		}
	}
}

// An in-house logging package's level functions log, as a logger type's
// methods do; its other functions, and another package's Error, do not.
func TestInHousePackage(t *testing.T) {
	logPkg := types.NewPackage("example.com/app/pkg/utils/log", "log")
	ordersPkg := types.NewPackage("example.com/app/orders", "orders")
	fn := func(pkg *types.Package, name string) *types.Func {
		return types.NewFunc(0, pkg, name, types.NewSignatureType(nil, nil, nil, nil, nil, false))
	}
	for _, c := range []struct {
		fn   *types.Func
		want bool
	}{
		{fn(logPkg, "Warn"), true},
		{fn(logPkg, "Errorf"), true},
		{fn(logPkg, "Fatal"), false},
		{fn(logPkg, "Init"), false},
		{fn(ordersPkg, "Error"), false},
		{fn(types.NewPackage("example.com/app/catalog", "catalog"), "Info"), false},
		{fn(types.NewPackage("example.com/app/xlog", "xlog"), "Infof"), true},
	} {
		if got := Logs(c.fn); got != c.want {
			t.Errorf("Logs(%s) = %v, want %v", c.fn.FullName(), got, c.want)
		}
	}
}

func TestPackage(t *testing.T) {
	for path, want := range map[string]bool{
		"log": true, "log/slog": true, "go.uber.org/zap": true, "go.uber.org/zap/zapcore": true,
		"github.com/rs/zerolog/log": true, "logger": false, "go.uber.org/zapx": false,
	} {
		if got := Package(path); got != want {
			t.Errorf("Package(%q) = %v, want %v", path, got, want)
		}
	}
}
