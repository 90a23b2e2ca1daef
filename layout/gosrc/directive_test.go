package gosrc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

func parseDirectives(t *testing.T, src string) (Directives, *types.Package, error) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "d.go", src, parser.ParseComments)
	if err != nil {
		return Directives{}, nil, err
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
	pkg, err := new(types.Config).Check("d", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatalf("type-check: %v", err)
	}
	dirs, err := ParseDirectives(fset, []*ast.File{f}, info)
	return dirs, pkg, err
}

func TestParseDirectives(t *testing.T) {
	dirs, pkg, err := parseDirectives(t, `package d

// T is a C-like struct.
//
//mglayout:align 64
//mglayout:model t@v1
type T struct{ a int64 }

type (
	// U is a union.
	//mglayout:union
	U struct{ a, b int32 }
)

//mglayout:align 128
var V T
`)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, want TypeDirectives) {
		t.Helper()
		d := dirs.Type(pkg.Scope().Lookup(name))
		if d == nil || d.Align != want.Align || d.Union != want.Union || d.Model != want.Model {
			t.Errorf("%s: %+v, want %+v", name, d, want)
		}
	}
	check("T", TypeDirectives{Align: 64, Model: "t@v1"})
	check("U", TypeDirectives{Union: true})
	check("V", TypeDirectives{Align: 128})
}

func TestParseDirectivesErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"package d\n\n//mglayout:align 96\ntype T struct{}\n", `d.go:3:1: //mglayout:align 96: "96" is not a power of two`},
		{"package d\n\n//mglayout:algin 64\ntype T struct{}\n", `d.go:3:1: malformed directive "//mglayout:algin 64" (accepted: //mglayout:path NAME`},
		{"package d\n\n//mglayout:union please\ntype T struct{}\n", `d.go:3:1: malformed directive "//mglayout:union please"`},
		{"package d\n\nfunc f() {\n\t//mglayout:align 64\n}\n", `d.go:4:2: //mglayout:align is not in the doc comment of a type or variable declaration or in a struct field's comment`},
		{"package d\n\n//mglayout:\ntype T struct{}\n", `d.go:3:1: empty directive`},
	} {
		_, _, err := parseDirectives(t, tc.src)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want prefix %q", tc.src, err, tc.want)
		}
	}
}

// FuzzDirective checks that any directive text is either accepted or
// rejected with one line, never a panic.
func FuzzDirective(f *testing.F) {
	for _, seed := range []string{"//mglayout:align 64", "//mglayout:union", "//mglayout:model tk_core@v6.1", "//mglayout:align -1", "//mglayout:align 0x40", "//mglayout:", "//mglayout:align 64 64"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var d TypeDirectives
		if err := d.parse(text, token.Position{}); err != nil && strings.Contains(err.Error(), "\n") && !strings.Contains(text, "\n") {
			t.Errorf("error has several lines: %q", err)
		}
		if d.Align < 0 || (d.Align > 0 && d.Align&(d.Align-1) != 0) {
			t.Errorf("parse(%q) accepted align %d", text, d.Align)
		}
	})
}
