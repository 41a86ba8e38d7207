// Command score matches lockvet's findings on the corpus against the labels
// written by reading the code, and prints recall and silent-row hits for each
// half: half A (the first hex digit of the SHA-1 of owner/name is 0-7) is the
// one lockvet may be tuned on, half B is held out.
//
//	go run ./corpus/score -src DIR OUTDIR
//
// OUTDIR holds one `lockvet -f json` output per module, named
// owner+name__dir.json; DIR holds the checkouts, DIR/owner+name. A finding hits
// a row of its repository, file and check when its line is within the row's
// lines, two either side. A finding elsewhere whose message names the function
// holding the row ("… in utils.TryLock", "(in Save)") is counted apart, as a
// call-site report of that row's defect. Findings that hit no row are printed,
// to be read.
package main

import (
	"bufio"
	"crypto/sha1"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

type row struct {
	id, repo, file, check, verdict, reason string
	lo, hi                                 int
	hits, named                            []*finding
	holder, method                         string // "utils.TryLock", "TryLock": the function holding the row
}

type finding struct {
	repo, file, check, msg string
	line, col              int
	hit                    bool
}

var family = map[string]string{
	"setnxlock": "acquisition/release", "unsafedel": "acquisition/release",
	"unfencedwrite": "critical section", "needlesslock": "critical section",
}

func main() {
	src := flag.String("src", "/work/corpus/src", "directory of the checkouts")
	labels := flag.String("labels", "corpus", "directory holding repos.tsv and labels/")
	verbose := flag.Bool("v", false, "list misses and silent-row hits")
	whole := flag.Bool("whole", false, "score the repositories as one held-out set, not by halves")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: score [-src DIR] [-labels DIR] [-v] OUTDIR")
		os.Exit(2)
	}
	repos, err := readRepos(filepath.Join(*labels, "repos.tsv"))
	check(err)
	rows, err := readRows(filepath.Join(*labels, "labels"), *src)
	check(err)
	finds, err := readFindings(flag.Arg(0), *src)
	check(err)
	for _, f := range finds {
		for _, r := range rows {
			if r.repo == f.repo && r.file == f.file && r.check == f.check && r.lo-2 <= f.line && f.line <= r.hi+2 {
				r.hits = append(r.hits, f)
				f.hit = true
			} else if r.repo == f.repo && r.check == f.check && names(f.msg, r) {
				r.named = append(r.named, f)
				f.hit = true
			}
		}
	}
	halves := []string{"A", "B"}
	if *whole {
		halves, half = []string{"all"}, func(string) string { return "all" }
	}
	for _, h := range halves {
		var names []string
		for _, r := range repos {
			if half(r) == h {
				names = append(names, r)
			}
		}
		fmt.Printf("half %s: %d repositories\n", h, len(names))
		for _, fam := range []string{"acquisition/release", "critical section"} {
			var defects, found, named, silent, hit, namedHit int
			for _, r := range rows {
				if half(r.repo) != h || family[r.check] != fam {
					continue
				}
				if r.verdict == "defect" {
					defects++
					if len(r.hits) > 0 {
						found++
					} else if len(r.named) > 0 {
						named++
					} else if *verbose {
						fmt.Printf("    miss %s %s:%d %s: %s\n", r.id, r.file, r.lo, r.check, r.reason)
					}
				} else {
					silent++
					if len(r.hits) > 0 {
						hit++
						if *verbose {
							fmt.Printf("    hit  %s %s:%d %s: %s (%s)\n", r.id, r.file, r.hits[0].line, r.check, r.hits[0].msg, r.reason)
						}
					} else if len(r.named) > 0 {
						namedHit++
						if *verbose {
							fmt.Printf("    hit  %s at a call, %s:%d %s: %s (%s)\n", r.id, r.named[0].file, r.named[0].line, r.check, r.named[0].msg, r.reason)
						}
					}
				}
			}
			fmt.Printf("  %s: recall %d/%d (%d/%d with call-site reports naming the function), silent rows hit %d/%d (%d/%d)\n",
				fam, found, defects, found+named, defects, hit, silent, hit+namedHit, silent)
		}
	}
	var unlabelled int
	for _, f := range finds {
		if !f.hit {
			unlabelled++
			fmt.Printf("  unlabelled %s %s %s:%d:%d: %s (%s)\n", half(f.repo), f.repo, f.file, f.line, f.col, f.msg, f.check)
		}
	}
	fmt.Printf("findings %d, unlabelled %d\n", len(finds), unlabelled)
}

var half = func(repo string) string {
	if sum := sha1.Sum([]byte(repo)); sum[0]>>4 < 8 {
		return "A"
	}
	return "B"
}

func readRepos(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var repos []string
	for _, line := range strings.Split(string(data), "\n") {
		if name, _, ok := strings.Cut(line, "\t"); ok && name != "" {
			repos = append(repos, name)
		}
	}
	sort.Strings(repos)
	return repos, nil
}

var funcLine = regexp.MustCompile(`^func\s+(?:\(\s*\w*\s*\*?\s*(\w+)[^)]*\)\s*)?(\w+)`)

// names reports whether a finding's message names the function holding r.
func names(msg string, r *row) bool {
	if r.method == "" {
		return false
	}
	return regexp.MustCompile(`\bin (\w+\.)?`+regexp.QuoteMeta(r.holder)+`\b`).MatchString(msg) ||
		strings.Contains(msg, "(in "+r.method+")")
}

// holder finds the function declared at or above line lo of file: its
// receiver type or package directory, and its name.
func holder(file string, lo int) (string, string) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", ""
	}
	lines := strings.Split(string(data), "\n")
	for i := min(lo, len(lines)) - 1; i >= 0; i-- {
		if m := funcLine.FindStringSubmatch(lines[i]); m != nil {
			qual := m[1]
			if qual == "" {
				qual = filepath.Base(filepath.Dir(file))
			}
			return qual + "." + m[2], m[2]
		}
	}
	return "", ""
}

func readRows(dir, src string) ([]*row, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.tsv"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var rows []*row
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		for n, line := range strings.Split(string(data), "\n") {
			f := strings.Split(line, "\t")
			if len(f) < 6 || strings.TrimSpace(f[0]) == "" {
				continue
			}
			for i := range f {
				f[i] = strings.TrimSpace(f[i])
			}
			lo, hi, err := lines(f[2])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, n+1, err)
			}
			repo, _, _ := strings.Cut(f[0], "#")
			r := &row{
				id: f[0], repo: strings.Replace(repo, "+", "/", 1), file: strings.TrimPrefix(f[1], "./"),
				lo: lo, hi: hi, check: f[3], verdict: f[4], reason: f[5],
			}
			r.holder, r.method = holder(filepath.Join(src, repo, r.file), lo)
			rows = append(rows, r)
		}
	}
	return rows, nil
}

func lines(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "-")
	lo, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, fmt.Errorf("bad lines %q", s)
	}
	if !ok {
		return lo, lo, nil
	}
	hi, err := strconv.Atoi(b)
	if err != nil {
		return 0, 0, fmt.Errorf("bad lines %q", s)
	}
	return lo, hi, nil
}

// readFindings reads every output, dropping the duplicates a file analysed
// in two modules (or with its test variant) produces.
func readFindings(out, src string) ([]*finding, error) {
	files, err := filepath.Glob(filepath.Join(out, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	seen := map[string]bool{}
	var finds []*finding
	for _, file := range files {
		name, _, _ := strings.Cut(filepath.Base(file), "__")
		root := filepath.Join(src, name) + "/"
		fh, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var d struct {
				Code     string
				Message  string
				Location struct {
					File         string
					Line, Column int
				}
			}
			if !strings.HasPrefix(sc.Text(), "{") {
				continue
			}
			if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
				fh.Close()
				return nil, fmt.Errorf("%s: %v", file, err)
			}
			f := &finding{
				repo: strings.Replace(name, "+", "/", 1), file: strings.TrimPrefix(d.Location.File, root),
				line: d.Location.Line, col: d.Location.Column, check: d.Code, msg: d.Message,
			}
			key := fmt.Sprint(f.repo, f.file, f.line, f.col, f.check, f.msg)
			if !seen[key] {
				seen[key] = true
				finds = append(finds, f)
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return finds, nil
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "score:", err)
		os.Exit(1)
	}
}
