package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/analyzers"
	"github.com/lockvet/lockvet/internal/testcases"
)

// TestLinkCases runs the command over testdata/src/link, where each folder
// is a program of several packages as services are written (a lock
// interface in one package, its Redis implementation in another, the
// service that holds it and the repository it writes through in others,
// main wiring them), and checks the findings against the `// want`
// comments there as analysistest does for one package: every finding is
// wanted on its line, and every want is found.
func TestLinkCases(t *testing.T) {
	dir := testcases.Dir(t)
	t.Chdir(dir)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	o := &options{format: "json", tests: true, patterns: []string{"./link/..."}, checks: analyzers.All}
	var stdout, stderr bytes.Buffer
	if code := execute(o, &stdout, &stderr); code != exitFindings {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFindings, stdout.String(), stderr.String())
	}
	wants := readWants(t, filepath.Join(dir, "link"))
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		var f jsonFinding
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		at := fmt.Sprintf("%s:%d", f.Location.File, f.Location.Line)
		if !wants.take(at, f.Message) {
			t.Errorf("%s:%d: unexpected finding: %s (%s)", relative(f.Location.File), f.Location.Line, f.Message, f.Code)
		}
	}
	for _, at := range wants.order {
		for _, re := range wants.byLine[at] {
			t.Errorf("%s: no finding matched %q", relative(at), re)
		}
	}
}

// wantSet holds the expected messages by file:line, in file order.
type wantSet struct {
	byLine map[string][]*regexp.Regexp
	order  []string
}

// take removes the first want of the line that msg matches.
func (w *wantSet) take(at, msg string) bool {
	for i, re := range w.byLine[at] {
		if re.MatchString(msg) {
			w.byLine[at] = append(w.byLine[at][:i:i], w.byLine[at][i+1:]...)
			return true
		}
	}
	return false
}

var wantComment = regexp.MustCompile(`//\s*want\s+(.*)$`)

// readWants reads the `// want "re" ...` comments of the Go files under root.
func readWants(t *testing.T, root string) *wantSet {
	w := &wantSet{byLine: make(map[string][]*regexp.Regexp)}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for n, line := range strings.Split(string(data), "\n") {
			m := wantComment.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			at := fmt.Sprintf("%s:%d", path, n+1)
			for _, lit := range stringLits(m[1]) {
				s, err := strconv.Unquote(lit)
				if err != nil {
					return fmt.Errorf("%s: bad want %s: %v", at, lit, err)
				}
				re, err := regexp.Compile(s)
				if err != nil {
					return fmt.Errorf("%s: %v", at, err)
				}
				if w.byLine[at] == nil {
					w.order = append(w.order, at)
				}
				w.byLine[at] = append(w.byLine[at], re)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// stringLits returns the Go string literals of src, in order.
func stringLits(src string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	var lits []string
	for {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			return lits
		case token.STRING:
			lits = append(lits, lit)
		}
	}
}
