// Package logging knows which calls only log or format what they are given:
// code that runs them and nothing else does no work and decides nothing.
package logging

import (
	"go/types"
	"strings"
)

// packages are logging libraries: every function and method logs or builds
// a log entry.
var packages = []string{
	"log", "log/slog", "github.com/sirupsen/logrus", "go.uber.org/zap", "github.com/rs/zerolog",
	"k8s.io/klog", "github.com/golang/glog", "github.com/zeromicro/go-zero/core/logx",
	"github.com/cloudwego/hertz/pkg/common/hlog", "github.com/cloudwego/kitex/pkg/klog",
	"github.com/go-kit/log", "github.com/labstack/gommon/log", "github.com/gookit/slog",
}

// Package reports whether path is, or is inside, a logging library.
func Package(path string) bool {
	for _, p := range packages {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// Logs reports whether a call of fn only logs: a logging library's function
// or method, fmt's printing, or a log-level function or method (Info,
// Errorf…) of a package or type named like a logger (an in-house
// pkg/utils/log, a Logger). A call that may end the process or the
// goroutine (Fatal, Panic, Exit) does more than log.
func Logs(fn *types.Func) bool {
	if fn.Pkg() == nil || Ends(fn.Name()) {
		return false
	}
	name, path := fn.Name(), fn.Pkg().Path()
	if path == "fmt" {
		return strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Fprint")
	}
	if Package(path) {
		return true
	}
	named := strings.Contains(strings.ToLower(recvName(fn)), "log") || loggerPackage(fn.Pkg().Name())
	return named && level(name)
}

// loggerPackage reports whether a package's name says it logs: log,
// logger, logging, logx; xlog, applog. A catalog or a changelog does not.
func loggerPackage(name string) bool {
	name = strings.ToLower(name)
	switch name {
	case "catalog", "dialog", "backlog", "changelog", "blog":
		return false
	}
	return strings.HasPrefix(name, "log") || strings.HasSuffix(name, "log")
}

// Formats reports whether a call of fn builds a message or an error from its
// arguments and does nothing else: fmt.Sprintf, fmt.Errorf, errors.New,
// strconv, errors wrapping.
func Formats(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "fmt":
		return strings.HasPrefix(fn.Name(), "Sprint") || fn.Name() == "Errorf"
	case "errors", "strconv", "github.com/pkg/errors":
		return true
	}
	return false
}

// Ends reports whether a logger's method of this name may not return.
func Ends(name string) bool {
	for _, p := range []string{"Fatal", "Panic", "Exit", "Goexit"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func level(name string) bool {
	for _, l := range []string{"Print", "Debug", "Info", "Warn", "Error", "Log", "Trace", "Notice"} {
		if strings.HasPrefix(name, l) {
			return true
		}
	}
	return false
}

func recvName(fn *types.Func) string {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return ""
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// Stops reports whether a call of fn does not return to its caller: it
// ends the process or the goroutine, or panics (os.Exit, runtime.Goexit,
// log.Fatal, a logger's Fatal or Panic, a test's t.Fatal, t.FailNow, t.Skip). SSA does not know,
// and carries on after such a call as after any other.
func Stops(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	name, path := fn.Name(), fn.Pkg().Path()
	switch path {
	case "os":
		return name == "Exit"
	case "runtime":
		return name == "Goexit"
	case "testing":
		return strings.HasPrefix(name, "Fatal") || name == "FailNow" || strings.HasPrefix(name, "Skip")
	}
	logger := path == "log" || Package(path) || strings.Contains(strings.ToLower(recvName(fn)), "log") || loggerPackage(fn.Pkg().Name())
	return logger && Ends(name)
}
