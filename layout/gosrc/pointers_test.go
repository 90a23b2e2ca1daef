package gosrc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/mglayout/mglayout/layout"
)

const pointersSrc = `package p

import "unsafe"

type (
	Ints    struct{ a, b int64; c [4]uint32 }
	Ptr     struct{ p *int }
	Str     struct{ s string }
	Slice   struct{ s []byte }
	Map     struct{ m map[int]int }
	Chan    struct{ c chan int }
	Func    struct{ f func() }
	Iface   struct{ i any }
	Unsafe  struct{ u unsafe.Pointer }
	Uintptr struct{ u uintptr }
	Empty   struct{}
	Zero    struct{ a int; z [0]*int }
	Arr     struct{ a [3]string }
	Nested  struct{ x Ints; y struct{ z Ptr } }
	Named   Ptr
	Alias   = Str
	Cplx    struct{ c complex128; b bool; f float32 }
)
`

func TestHasPointers(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", pointersSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) { return types.Unsafe, nil })}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"Ints": false, "Ptr": true, "Str": true, "Slice": true, "Map": true, "Chan": true,
		"Func": true, "Iface": true, "Unsafe": true, "Uintptr": false, "Empty": false,
		"Zero": false, "Arr": true, "Nested": true, "Named": true, "Alias": true, "Cplx": false,
	} {
		typ := pkg.Scope().Lookup(name).Type()
		if got := HasPointers(typ); got != want {
			t.Errorf("HasPointers(%s) = %v, want %v", name, got, want)
		}
		b, err := NewBuilder("amd64", layout.SourceGo, Directives{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := b.Build(name, typ, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		if s.Pointers != want {
			t.Errorf("Build(%s).Pointers = %v, want %v", name, s.Pointers, want)
		}
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
