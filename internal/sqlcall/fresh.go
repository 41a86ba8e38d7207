package sqlcall

import (
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockvet/lockvet/internal/sqltext"
	"github.com/lockvet/lockvet/internal/ssautil"
)

// freshIDs are the packages whose New…, Make and Must draw a new identifier
// on every call: a key made of one never repeats, so a conflict on it never
// fires.
var freshIDs = map[string]bool{
	"github.com/google/uuid": true, "github.com/gofrs/uuid": true, "github.com/gofrs/uuid/v5": true,
	"github.com/satori/go.uuid": true, "github.com/segmentio/ksuid": true, "github.com/rs/xid": true,
	"github.com/oklog/ulid": true, "github.com/oklog/ulid/v2": true,
}

// freshSQL are the SQL functions that draw a new identifier.
var freshSQL = []string{"gen_random_uuid(", "uuid_generate_v4(", "uuid_generate_v7(", "uuid(", "newid(", "nextval("}

// Fresh reports whether v is an identifier drawn new for this call:
// uuid.NewString(), uuid.New().String(), ulid.Make().
func Fresh(v ssa.Value) bool {
	for range 4 {
		v = ssautil.Unwrap(v)
		if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
			v = ex.Tuple // uuid.NewRandom()'s value
		}
		call, ok := v.(*ssa.Call)
		if !ok {
			return false
		}
		obj, recv, args := ssautil.Callee(call.Common())
		if obj == nil || obj.Pkg() == nil || !freshIDs[obj.Pkg().Path()] {
			return false
		}
		switch name := obj.Name(); {
		case recv != nil && (name == "String" || name == "Bytes"):
			v = recv
		case name == "Must" && len(args) > 0:
			v = args[0]
		case strings.HasPrefix(name, "New") || name == "Make":
			return true
		default:
			return false
		}
	}
	return false
}

// FreshSQL reports whether an operand calls a SQL function that draws a new
// identifier: gen_random_uuid(), nextval('…').
func FreshSQL(o sqltext.Operand) bool {
	text := strings.ToLower(o.Text)
	for _, f := range freshSQL {
		if strings.HasPrefix(text, f) {
			return true
		}
	}
	return false
}
