package effects

import (
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/clients"
	"github.com/lockvet/lockvet/internal/logging"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// What calls into a package do, for packages whose bodies lockvet does not
// summarise: the standard library and well-known third-party libraries.
type kind int

const (
	unknown  kind = iota // could do anything: precision says assume the worst
	pure                 // computation, logging, and database plumbing (Begin, Scan, Commit)
	external             // talks to the world outside the database
)

// packages maps package paths, and the trees below them, to what they do.
var packages = map[string]kind{
	// Computation and logging.
	"fmt": pure, "strings": pure, "strconv": pure, "bytes": pure, "errors": pure,
	"math": pure, "sort": pure, "slices": pure, "maps": pure, "unicode": pure,
	"time": pure, "context": pure, "sync": pure, "encoding": pure, "regexp": pure,
	"crypto": pure, "hash": pure, "container": pure, "reflect": pure,
	"path": pure, "runtime": pure, "iter": pure, "cmp": pure, "unsafe": pure,
	"net/url": pure, "net/netip": pure, "go/ast": pure, "go/token": pure,
	"github.com/google/uuid": pure, "github.com/shopspring/decimal": pure,
	"github.com/pkg/errors": pure,
	// An RPC's errors, codes, metadata and messages are values.
	"google.golang.org/grpc/status": pure, "google.golang.org/grpc/codes": pure,
	"google.golang.org/grpc/metadata": pure, "google.golang.org/protobuf": pure,
	// Database plumbing; the statements themselves are recognised by sqlcall.
	"database/sql": pure, "github.com/jmoiron/sqlx": pure, "github.com/jackc/pgx": pure,
	"github.com/jackc/pgconn": pure, "gorm.io/gorm": pure, "github.com/jinzhu/gorm": pure, "github.com/Masterminds/squirrel": pure,
	"github.com/uptrace/bun": pure, "entgo.io/ent": pure, "xorm.io/xorm": pure, "github.com/go-xorm/xorm": pure,
	// go-zero's cached connection runs the statement it is handed, reading
	// through the table's own cache and dropping the row's keys after a write.
	"github.com/zeromicro/go-zero/core/stores/sqlc": pure,
	// The outside world.
	"net": external, "os/exec": external, "syscall": external,
	"google.golang.org/grpc": external, "github.com/segmentio/kafka-go": external,
	"github.com/IBM/sarama": external, "github.com/Shopify/sarama": external,
	"github.com/confluentinc/confluent-kafka-go": external, "github.com/nats-io/nats.go": external,
	"github.com/rabbitmq/amqp091-go": external, "github.com/streadway/amqp": external,
	"github.com/aws/aws-sdk-go": external, "github.com/aws/aws-sdk-go-v2": external,
	"cloud.google.com/go": external, "github.com/go-resty/resty": external,
	"github.com/stripe/stripe-go": external, "github.com/hibiken/asynq": external,
}

// osWrites are the functions of package os that change files.
var osWrites = map[string]bool{
	"WriteFile": true, "Create": true, "OpenFile": true, "Remove": true, "RemoveAll": true,
	"Rename": true, "Mkdir": true, "MkdirAll": true, "Write": true, "WriteString": true,
	"WriteAt": true, "Truncate": true, "Chmod": true, "Chown": true, "Symlink": true, "Link": true,
}

// logs reports whether call only logs, or formats a message for a log: not
// fmt.Errorf, which hands the error on.
func logs(call ssa.CallInstruction) bool {
	obj, _, _ := ssautil.Callee(call.Common())
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	if obj.Pkg().Path() == "fmt" && strings.HasPrefix(obj.Name(), "Sprint") {
		return true
	}
	return logging.Logs(obj)
}

// judged reports whether the table, not a summary, says what calls into the
// package at path do.
func judged(path string) bool {
	return clients.Known(path) || logging.Package(path) || path == "os" || lookup(path) != unknown
}

// classify says what a call of the function or method name, declared on a
// receiver type named recv ("" for functions), in package path does.
func classify(path, recv, name string) kind {
	if clients.Known(path) {
		// Reading a command's reply (Val, Result), converting one, building a
		// script or taking a pooled connection sends nothing; every other call
		// is a Redis command besides the lock's own.
		if strings.HasSuffix(recv, "Cmd") || recv == "Pool" || recv == "" && name != "DoContext" {
			return pure
		}
		return external
	}
	if path == "os" {
		if osWrites[name] {
			return external
		}
		return pure
	}
	if logging.Package(path) {
		return pure
	}
	return lookup(path)
}

// lookup finds path, or the nearest tree above it, in packages.
func lookup(path string) kind {
	for p := path; ; {
		if k, ok := packages[p]; ok {
			return k
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			return unknown
		}
		p = p[:i]
	}
}
