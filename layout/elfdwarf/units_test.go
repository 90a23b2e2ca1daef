package elfdwarf

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestSharedAcrossUnits links two units that give the same struct name
// and member names different contents through a typedef: a layout may be
// shared between units only when it is the same, whatever else is loaded.
func TestSharedAcrossUnits(t *testing.T) {
	requireGCC(t)
	dir := t.TempDir()
	for name, src := range map[string]string{
		"u1.c": "typedef int val_t;\nstruct S { val_t v; long pad; };\nstruct TA { struct S s; } ta;\n",
		"u2.c": "typedef short val_t;\nstruct S { val_t v; long pad; };\nstruct TB { char c; struct S s; } tb;\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		gcc(t, dir, filepath.Join(dir, name), name[:2]+".o", "-g")
	}
	cmd := exec.Command("ld", "-r", "-o", "u12.o", "u1.o", "u2.o")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("ld -r: %v\n%s", err, out)
	}
	for _, types := range [][]string{{"TA", "TB"}, {"TB"}} {
		structs, _, err := Load(filepath.Join(dir, "u12.o"), Options{Types: types})
		if err != nil {
			t.Fatal(err)
		}
		tb := byName(structs)["TB"]
		if tb == nil {
			t.Fatalf("Types %v: no TB", types)
		}
		if v := tb.Field("s.v"); v == nil || v.Size != 2 {
			t.Errorf("Types %v: TB.s.v is %+v, want 2 bytes (u2's val_t is a short)", types, v)
		}
	}
}

// TestTypedefRequest asks for a struct by its tag and by typedefs of it:
// all answer with the one struct.
func TestTypedefRequest(t *testing.T) {
	requireGCC(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "td.c")
	const text = "typedef struct foo { long a; char b; } foo_t;\nfoo_t x;\n" +
		"typedef struct { int a; } anon_t;\ntypedef anon_t anon2_t;\nanon2_t y;\n"
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := gcc(t, dir, src, "td.o", "-g")
	for _, types := range [][]string{{"foo", "foo_t"}, {"foo_t"}, {"foo_t", "foo"}} {
		structs, _, err := Load(obj, Options{Types: types})
		if err != nil {
			t.Errorf("Types %v: %v", types, err)
			continue
		}
		if len(structs) != 1 || structs[0].Name != "foo" || structs[0].Size != 16 {
			t.Errorf("Types %v: %d structs, want struct foo of 16 bytes once", types, len(structs))
		}
	}
	// An anonymous struct is named by its typedef, and found by a typedef
	// of that typedef too.
	for _, types := range [][]string{{"anon_t"}, {"anon2_t"}, {"anon_t", "anon2_t"}} {
		structs, _, err := Load(obj, Options{Types: types})
		if err != nil {
			t.Errorf("Types %v: %v", types, err)
			continue
		}
		if len(structs) != 1 || structs[0].Name != "anon_t" || structs[0].Size != 4 {
			t.Errorf("Types %v: %d structs, want anon_t of 4 bytes once", types, len(structs))
		}
	}
}

// TestDefinedDifferently: a struct name that two units define with other
// sizes is read from the first unit, with a note that says so.
func TestDefinedDifferently(t *testing.T) {
	requireGCC(t)
	dir := t.TempDir()
	for name, src := range map[string]string{
		"w1.c": "struct W { long a; } w1;\n",
		"w2.c": "struct W { long a; long b; } w2;\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		gcc(t, dir, filepath.Join(dir, name), name[:2]+".o", "-g")
	}
	cmd := exec.Command("ld", "-r", "-o", "w12.o", "w1.o", "w2.o")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("ld -r: %v\n%s", err, out)
	}
	structs, notes, err := Load(filepath.Join(dir, "w12.o"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := byName(structs)["W"]; w == nil || w.Size != 8 {
		t.Errorf("W: %+v, want the first unit's 8 bytes", w)
	}
	want := "struct W is defined differently in w1.c and w2.c; this shows the one in w1.c"
	if !slices.Contains(notes, want) {
		t.Errorf("notes %q lack %q", notes, want)
	}
}
