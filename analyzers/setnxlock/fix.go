package setnxlock

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/edit"
	"github.com/lockvet/lockvet/internal/lockmodel"
)

// foldExpire moves the TTL of `SetNX(ctx, k, v, 0)` … `Expire(ctx, k, ttl)` into
// the SetNX and deletes the Expire statement. It is offered only for go-redis
// calls written out in full, where both TTLs are time.Duration, the Expire is a
// statement of its own, and its TTL expression is already computable at the SetNX.
func foldExpire(pass *analysis.Pass, l *lockmodel.Lock) []analysis.SuggestedFix {
	a, x := l.Acquire, l.Expire
	if a.Command != "SETNX" || a.Via != nil || a.TTLExpr == nil || x.Command != "EXPIRE" && x.Command != "PEXPIRE" {
		return nil
	}
	file, setnx, _ := edit.CallAt(pass, a.Pos())
	_, expire, path := edit.CallAt(pass, x.Pos())
	if file == nil || setnx == nil || expire == nil || len(setnx.Args) != 4 || len(expire.Args) != 3 {
		return nil
	}
	if !isDuration(pass.TypesInfo.TypeOf(expire.Args[2])) || !isDuration(pass.TypesInfo.TypeOf(setnx.Args[3])) {
		return nil
	}
	stmt := edit.Statement(path, expire)
	if _, ok := stmt.(*ast.ExprStmt); !ok || !edit.Movable(pass.TypesInfo, expire.Args[2], setnx.Pos()) {
		return nil
	}
	src, err := edit.ReadFile(pass, pass.Fset.File(file.FileStart).Name())
	if err != nil {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message: "pass the TTL to SetNX and drop the EXPIRE",
		TextEdits: []analysis.TextEdit{
			{Pos: setnx.Args[3].Pos(), End: setnx.Args[3].End(), NewText: []byte(edit.Text(pass.Fset, expire.Args[2]))},
			edit.LineEdit(pass.Fset, src, stmt.Pos(), stmt.End()),
		},
	}}
}

func isDuration(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}
