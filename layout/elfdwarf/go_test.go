package elfdwarf

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/gosrc"
)

// The awkward package of layout/gosrc's tests: struct types whose layouts
// are easy to get wrong, in a module of its own.
const (
	gosrcTestdata = "../gosrc/testdata"
	awkwardPkg    = "mglayout.test/awkward"
)

// TestGoBinaries cross-compiles a program that uses every struct of the
// awkward package for arm64 and 386 and checks that what the loader reads
// from the binary's DWARF equals what layout/gosrc computes from the
// source for that GOARCH (layout -elf against layout -arch), struct by
// struct and member by member: path, name, offset, size, alignment, kind,
// array length and element, and the type as go/types spells it.
func TestGoBinaries(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("go command not found in PATH; the comparison builds Go binaries: %v", err)
	}
	if testing.Short() {
		t.Skip("builds Go binaries for two GOARCHes; skipped with -short")
	}
	for _, arch := range []string{"arm64", "386"} {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			res, err := gosrc.Load(gosrc.Config{Dir: gosrcTestdata, Archs: []string{arch}}, []string{"./awkward"})
			if err != nil {
				t.Fatal(err)
			}
			// A stand-in for a generic type's instances (gosrc.StandIn) is
			// named by its type parameters, as no binary names a type:
			// gosrc's own compiler test checks it as the instance it is.
			res.Structs = slices.DeleteFunc(res.Structs, func(s *layout.Struct) bool { return strings.Contains(s.Doc, "a stand-in") })
			if len(res.Structs) < 20 {
				t.Fatalf("gosrc.Load: %d structs, want at least 20", len(res.Structs))
			}
			bin := buildAwkward(t, arch, res.Structs)
			var names []string
			for _, s := range res.Structs {
				names = append(names, s.Name)
			}
			got, _, err := Load(bin, Options{Types: names, Arch: arch})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(res.Structs) {
				t.Fatalf("read %d structs, gosrc has %d", len(got), len(res.Structs))
			}
			members := 0
			for i, want := range res.Structs {
				s := got[i]
				if s.Name != want.Name || s.Size != want.Size || s.Align != want.Align || s.Arch != arch {
					t.Errorf("%s: %s size %d align %d arch %s, gosrc %s size %d align %d", want.Name, s.Name, s.Size, s.Align, s.Arch, want.Name, want.Size, want.Align)
				}
				members += compareGo(t, want.Name, s.Fields, want.Fields)
			}
			if members < 150 {
				t.Errorf("compared %d members; the awkward package has more", members)
			}
			t.Logf("%s: %d structs, %d members equal", arch, len(got), members)
		})
	}
}

// buildAwkward writes a module with a copy of the awkward package and a
// variable of every struct type it declares, and builds it for arch.
func buildAwkward(t *testing.T, arch string, structs []*layout.Struct) string {
	t.Helper()
	dir := t.TempDir()
	pkgDir := filepath.Join(dir, "awkward")
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(gosrcTestdata, "go.mod"), filepath.Join(dir, "go.mod"))
	srcs, _ := filepath.Glob(filepath.Join(gosrcTestdata, "awkward", "*.go"))
	for _, src := range srcs {
		copyFile(t, src, filepath.Join(pkgDir, filepath.Base(src)))
	}
	var vars, uses bytes.Buffer
	for i, s := range structs {
		local, ok := strings.CutPrefix(s.Name, awkwardPkg+".")
		if !ok {
			continue // an instantiation of another package's type: a member's type here
		}
		local = strings.NewReplacer(awkwardPkg+".", "", "sync/atomic.", "atomic.").Replace(local)
		fmt.Fprintf(&vars, "\tV%d %s\n", i, local)
		fmt.Fprintf(&uses, "\tprintln(&V%d)\n", i)
	}
	gen := fmt.Sprintf("package awkward\n\nimport \"sync/atomic\"\n\nvar _ atomic.Bool\n\nvar (\n%s)\n\nfunc Use() {\n%s}\n", vars.String(), uses.String())
	if err := os.WriteFile(filepath.Join(pkgDir, "zz_vars.go"), []byte(gen), 0o644); err != nil {
		t.Fatal(err)
	}
	main := "package main\n\nimport \"mglayout.test/awkward\"\n\nfunc main() { awkward.Use() }\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "awkward-"+arch)
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch, "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOARCH=%s go build: %v\n%s", arch, err, out)
	}
	return bin
}

// goSynonyms spells what go/types keeps and DWARF does not: the
// predeclared aliases and the package's own alias.
var goSynonyms = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\bany\b`), "interface{}"},
	{regexp.MustCompile(`\bbyte\b`), "uint8"},
	{regexp.MustCompile(`\brune\b`), "int32"},
	{regexp.MustCompile(`\bInnerAlias\b`), "Inner"},
}

func unalias(typ string) string {
	for _, s := range goSynonyms {
		typ = s.re.ReplaceAllString(typ, s.with)
	}
	return typ
}

// compareGo compares the members the loader read with gosrc's, one by
// one, elements of arrays of structs included, and returns the number
// compared.
func compareGo(t *testing.T, where string, got, want []layout.Field) int {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d members, gosrc has %d", where, len(got), len(want))
		return 0
	}
	n := 0
	for i := range got {
		g, w := &got[i], &want[i]
		gs := fmt.Sprintf("%s %q %q at %d size %d align %d %v len %d depth %d parent %d",
			g.Path, g.Name, g.Type, g.Offset, g.Size, g.Align, g.Kind, g.Len, g.Depth, g.Parent)
		ws := fmt.Sprintf("%s %q %q at %d size %d align %d %v len %d depth %d parent %d",
			w.Path, w.Name, unalias(w.Type), w.Offset, w.Size, w.Align, w.Kind, w.Len, w.Depth, w.Parent)
		if gs != ws {
			t.Errorf("%s: member %d\n DWARF %s\n gosrc %s", where, i, gs, ws)
			continue
		}
		n++
		if (g.Elem == nil) != (w.Elem == nil) {
			t.Errorf("%s.%s: element layout %v, gosrc %v", where, g.Path, g.Elem != nil, w.Elem != nil)
		} else if g.Elem != nil {
			if g.Elem.Size != w.Elem.Size || g.Elem.Align != w.Elem.Align || g.Elem.Name != unalias(w.Elem.Name) {
				t.Errorf("%s.%s: element %s size %d align %d, gosrc %s size %d align %d", where, g.Path, g.Elem.Name, g.Elem.Size, g.Elem.Align, w.Elem.Name, w.Elem.Size, w.Elem.Align)
			}
			n += compareGo(t, where+"."+g.Path+"[]", g.Elem.Fields, w.Elem.Fields)
		}
	}
	return n
}

// TestGoSpelling checks how the Go linker's type names are written as
// go/types writes them, relative to the struct's package.
func TestGoSpelling(t *testing.T) {
	const pkg = "mglayout.test/awkward"
	for _, tc := range []struct{ dwarf, want string }{
		{"int64", "int64"},
		{"*mglayout.test/awkward.Inner", "*Inner"},
		{"[3]mglayout.test/awkward.Leaf", "[3]Leaf"},
		{"sync/atomic.Int64", "atomic.Int64"},
		{"sync/atomic.Pointer[mglayout.test/awkward.Inner]", "atomic.Pointer[Inner]"},
		{"mglayout.test/awkward.Pair[int8,int64]", "Pair[int8, int64]"},
		{"mglayout.test/awkward.Pair[string,mglayout.test/awkward.Inner]", "Pair[string, Inner]"},
		{"[2][3]int16", "[2][3]int16"},
		{"struct { mglayout.test/awkward.x int16; mglayout.test/awkward.y int16 }", "struct{x int16; y int16}"},
		{"struct {}", "struct{}"},
		{"chan struct {}", "chan struct{}"},
		{"interface {}", "interface{}"},
		{"interface { String() string }", "interface{String() string}"},
		{"map[string]int", "map[string]int"},
		{"func(int) error", "func(int) error"},
		{"chan<- int", "chan<- int"},
		{"example.com/foo/v2.T", "foo.T"},
		{"gopkg.in/yaml.v3.Node", "yaml.Node"},
	} {
		if got := goSpelling(tc.dwarf, pkg); got != tc.want {
			t.Errorf("goSpelling(%q) = %q, want %q", tc.dwarf, got, tc.want)
		}
	}
}
