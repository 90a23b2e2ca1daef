package suggest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/elfdwarf"
	"github.com/mglayout/mglayout/layout/suggest"
)

// TestCDeclarationsCompile writes every struct of layout_features.c (bit
// fields, arrays of pointers, pointers to functions and to arrays,
// anonymous unions, packed and aligned types, a typedef of an anonymous
// struct, forced alignment, flexible arrays) back as C from
// its DWARF, as suggest writes a declaration, renamed, and has gcc
// check that the copy has the original's size and every member's
// offset: the C writer spells what the DWARF describes.
func TestCDeclarationsCompile(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found in PATH: this test compiles C with it")
	}
	src, err := filepath.Abs("../../testdata/c/layout_features.c")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	obj := filepath.Join(dir, "features.o")
	if out, err := exec.Command("gcc", "-g", "-c", src, "-o", obj).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	structs, _, err := elfdwarf.Load(obj, elfdwarf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#include %q\n", src)
	checked := 0
	for _, s := range structs {
		decls := suggest.CDeclarations(&suggest.Result{Original: s, Suggested: s, Reordered: []string{""}}, nil)
		if len(decls) != 1 || decls[0].Old != decls[0].New {
			t.Fatalf("%s: %d declarations, or the declared and suggested ones differ", s.Name, len(decls))
		}
		// The copy is the same declaration under another name.
		orig, copied := "struct "+s.Name, "struct copy_"+s.Name
		text := strings.Replace(decls[0].Old, orig+" {", copied+" {", 1)
		if strings.HasPrefix(decls[0].Old, "typedef struct {") {
			orig, copied = s.Name, "copy_"+s.Name
			text = strings.Replace(decls[0].Old, "} "+orig, "} "+copied, 1)
		}
		b.WriteString(text)
		fmt.Fprintf(&b, "_Static_assert(sizeof(%s) == sizeof(%s), \"size of %s\");\n", copied, orig, s.Name)
		for _, i := range s.Members(-1) {
			f := &s.Fields[i]
			if f.BitSize > 0 || f.Name == "" {
				continue
			}
			fmt.Fprintf(&b, "_Static_assert(offsetof(%s, %s) == offsetof(%s, %s), \"offset of %s.%s\");\n",
				copied, f.Name, orig, f.Name, s.Name, f.Name)
		}
		checked++
	}
	check := filepath.Join(dir, "check.c")
	if err := os.WriteFile(check, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-c", check, "-o", filepath.Join(dir, "check.o")).CombinedOutput(); err != nil {
		t.Fatalf("gcc rejects the declarations written back: %v\n%s\n%s", err, out, b.String())
	}
	if checked < 15 {
		t.Errorf("checked %d structs, want the file's 15 or more", checked)
	}
}

// TestCMember checks the C spelling of members from the abstract
// declarators the DWARF loader writes.
func TestCMember(t *testing.T) {
	for _, tc := range []struct {
		f    layout.Field
		want string
	}{
		{layout.Field{Name: "x", Type: "u64"}, "u64\tx;"},
		{layout.Field{Name: "p", Type: "char *"}, "char\t*p;"},
		{layout.Field{Name: "names", Type: "char *[4]"}, "char\t*names[4];"},
		{layout.Field{Name: "grid", Type: "short int[2][3]"}, "short int\tgrid[2][3];"},
		{layout.Field{Name: "fn", Type: "void (*)(int)"}, "void\t(*fn)(int);"},
		{layout.Field{Name: "table", Type: "int (*)[3]"}, "int\t(*table)[3];"},
		{layout.Field{Name: "a", Type: "unsigned int", BitSize: 3}, "unsigned int\ta:3;"},
		{layout.Field{Name: "x", Type: "int", Align: 64, ForcedAlign: true}, "int\tx __attribute__((__aligned__(64)));"},
	} {
		typ, decl := suggest.CMember(&tc.f)
		if got := typ + "\t" + decl; got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.f.Name, tc.f.Type, got, tc.want)
		}
	}
}
