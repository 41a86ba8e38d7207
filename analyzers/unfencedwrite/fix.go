package unfencedwrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/edit"
	"github.com/lockvet/lockvet/internal/lockmodel"
	"github.com/lockvet/lockvet/internal/sqlcall"
	"github.com/lockvet/lockvet/internal/sqltext"
)

// fenceFix adds the fence to a constant PostgreSQL UPDATE written as a literal
// at the call, when the token the lock's grant issued is a variable in scope
// there: `, col = $n` after the SET list, ` AND col < $n` after the WHERE,
// the token as the last argument, and, when the code does not look at the
// row count yet, a check that turns a refused write into an error (see
// rowsCheck). Without a way to add that check it offers no fix: a fenced
// write whose refusal passes as success is no fix.
func fenceFix(pass *analysis.Pass, l *lockmodel.Lock, c *sqlcall.Call, v verdict) []analysis.SuggestedFix {
	if l == nil || v != unfenced || c.Stmt.Kind != sqltext.Update || !c.Known || !c.Stmt.HasWhere || c.Stmt.WhereOpaque {
		return nil
	}
	col := fence[0]
	tok := tokenIdent(pass, l)
	file, call, path := edit.CallAt(pass, callPos(c.Instr))
	if tok == nil || file == nil || call == nil || call.Ellipsis.IsValid() || !visible(pass, tok, call.Pos()) {
		return nil
	}
	lit := literal(call, c.Text)
	if lit == nil || strings.Contains(c.Text, "?") {
		return nil
	}
	n, store := c.Stmt.Placeholders+1, true
	for _, a := range c.Stmt.Set {
		if a.Column != strings.ToLower(col) {
			continue
		}
		// It stores a value already: compare with the same placeholder.
		if a.Value.Kind != sqltext.OpPlaceholder || a.Value.Placeholder == 0 || a.Value.Name != "" {
			return nil
		}
		n, store = a.Value.Placeholder, false
	}
	fenced, ok := addFence(c.Text, col, n, store)
	if !ok {
		return nil
	}
	quoted := strconv.Quote(fenced)
	if strings.HasPrefix(lit.Value, "`") && !strings.Contains(fenced, "`") {
		quoted = "`" + fenced + "`"
	}
	edits := []analysis.TextEdit{{Pos: lit.Pos(), End: lit.End(), NewText: []byte(quoted)}}
	if store {
		last := call.Args[len(call.Args)-1]
		edits = append(edits, analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte(", " + tok.Name)})
	}
	if !sqlcall.ResultChecked(c) {
		check, ok := rowsCheck(pass, file, call, path)
		if !ok {
			return nil
		}
		edits = append(edits, check...)
	}
	return []analysis.SuggestedFix{{Message: "fence the write with the lock's token", TextEdits: edits}}
}

// addFence rewrites `UPDATE t SET … WHERE …` into one that checks the token
// as placeholder $n, and stores it too when store is set. It declines
// statements with clauses after the WHERE, where the predicate would need
// placing by a real parser.
func addFence(text, col string, n int, store bool) (string, bool) {
	upper := strings.ToUpper(text)
	where := strings.LastIndex(upper, "WHERE")
	if where < 0 || strings.Count(upper, "WHERE") != 1 {
		return "", false
	}
	for _, kw := range []string{"RETURNING", "LIMIT", "ORDER BY", ";"} {
		if strings.Contains(upper[where:], kw) {
			return "", false
		}
	}
	head := strings.TrimRight(text[:where], " \t\n")
	tail := strings.TrimRight(text[where:], " \t\n")
	sep := text[len(head):where]
	if store {
		head = fmt.Sprintf("%s, %s = $%d", head, col, n)
	}
	return fmt.Sprintf("%s%s%s AND %s < $%d", head, sep, tail, col, n), true
}

// literal returns the string literal argument whose value is text.
func literal(call *ast.CallExpr, text string) *ast.BasicLit {
	for _, arg := range call.Args {
		lit, ok := arg.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			continue
		}
		if s, err := strconv.Unquote(lit.Value); err == nil && s == text {
			return lit
		}
	}
	return nil
}

// tokenIdent finds the variable the token the lock's grant issued is
// assigned to: `token, err := fence.Run(…).Int64()`.
func tokenIdent(pass *analysis.Pass, l *lockmodel.Lock) *ast.Ident {
	for _, op := range l.Tokens {
		if !op.Grant {
			continue
		}
		_, _, path := edit.CallAt(pass, op.Pos())
		for _, n := range path {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				continue
			}
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
				return id
			}
			break
		}
	}
	return nil
}

// visible reports whether the variable id declares is in scope at pos.
func visible(pass *analysis.Pass, id *ast.Ident, pos token.Pos) bool {
	obj := pass.TypesInfo.ObjectOf(id)
	return obj != nil && obj.Parent() != nil && obj.Pos() < pos && obj.Parent().Contains(pos)
}
