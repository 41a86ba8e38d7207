package directive

import (
	"go/parser"
	"go/token"
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	src := `package p

//lockvet:file-ignore unfencedwrite legacy batch job, fenced by its scheduler

func f() {
	//lockvet:ignore setnxlock,unsafedel the value is checked by the caller
	g() //lockvet:ignore unsafedel
	//lockvet:ignored setnxlock not ours
	//lockvet:ignore
}

func g() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	got := Parse(fset, f)
	want := []Directive{
		{File: true, Line: 3, Checks: []string{"unfencedwrite"}, Reason: "legacy batch job, fenced by its scheduler"},
		{Line: 6, Checks: []string{"setnxlock", "unsafedel"}, Reason: "the value is checked by the caller"},
		{Line: 7, Checks: []string{"unsafedel"}},
		{Line: 9},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d directives, want %d", len(got), len(want))
	}
	for i, d := range got {
		d.Pos = 0
		if !reflect.DeepEqual(*d, want[i]) {
			t.Errorf("directive %d = %+v, want %+v", i, *d, want[i])
		}
	}
	if !got[1].Covers("unsafedel", 7) || got[1].Covers("unsafedel", 8) || !got[0].Covers("unfencedwrite", 100) {
		t.Error("Covers: wrong lines")
	}
}
