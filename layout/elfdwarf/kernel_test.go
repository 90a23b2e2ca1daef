package elfdwarf

import (
	"debug/elf"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/internal/kernelfacts"
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/structs"
)

// kernelBuilds are the ways ../shared/kernel/BUILD.txt compiles
// tk_layout.c, with the built-in model each struct is.
var kernelBuilds = []struct {
	defines []string
	models  map[string]string // name the loader gives -> built-in model
}{
	{nil, map[string]string{
		"tk_core_v6_1":  "tk_core@v6.1",
		"tk_data_v6_13": "tk_data@v6.13",
		"tk_data_v6_15": "tk_data@v6.15",
		"tk_data_v6_17": "tk_data@v6.17",
		"tk_data_v7_1":  "tk_data@v7.1",
		"tk_fast":       "tk_fast@v6.1",
		"atomic64_t":    "mg_floor@v6.13", // typedef struct { s64 counter; } atomic64_t
	}},
	{[]string{"-DGUOHUI_PADDING"}, map[string]string{"tk_core_v6_1": "tk_core@v6.1+guohui"}},
	{[]string{"-DRT_OR_LOCKDEP_SEQ"}, map[string]string{"tk_core_v6_1": "tk_core@v6.1+rt"}},
}

// compileKernel compiles tk_layout.c as BUILD.txt does, with extra
// defines, and returns the object and the GOARCH it is for (the models
// hold for LP64 amd64 and arm64). -fno-eliminate-unused-debug-types keeps
// struct tk_data_v6_15, which no variable uses.
func compileKernel(t *testing.T, dir, obj string, defines ...string) (string, string) {
	t.Helper()
	src := filepath.Join(kernelfacts.Dir(), "tk_layout.c")
	flags := append([]string{"-g", "-O0", "-fno-eliminate-unused-debug-types", "-DSMP_CACHE_BYTES=64"}, defines...)
	path := gcc(t, dir, src, obj, flags...)
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	arch, _ := target(f)
	if arch != "amd64" && arch != "arm64" {
		t.Skipf("gcc here targets %s; the kernel models hold for amd64 and arm64", arch)
	}
	return path, arch
}

// TestKernelModels compiles tk_layout.c with and without the patches'
// defines and checks that the loader reads exactly the built-in models:
// every member at every depth with the same path, offset, size, kind and
// array length, anonymous unions included, and the same struct sizes;
// alignments where the type carries them (tk_fast and mg_floor get
// theirs from their variables).
func TestKernelModels(t *testing.T) {
	requireGCC(t)
	dir := t.TempDir()
	total := 0
	for i, b := range kernelBuilds {
		obj, arch := compileKernel(t, dir, fmt.Sprintf("tk%d.o", i), b.defines...)
		var names []string
		for name := range b.models {
			names = append(names, name)
		}
		got, _, err := Load(obj, Options{Types: names})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range got {
			where := strings.TrimSpace("gcc "+strings.Join(b.defines, " ")) + ": " + s.Name
			m, err := structs.Lookup(b.models[s.Name], arch)
			if err != nil {
				t.Fatal(err)
			}
			if s.Size != m.Size {
				t.Errorf("%s: size %d, %s is %d", where, s.Size, m.Name, m.Size)
			}
			if s.Align != m.Align && s.Name != "tk_fast" && s.Name != "atomic64_t" {
				t.Errorf("%s: align %d, %s is %d", where, s.Align, m.Name, m.Align)
			}
			total += compareFields(t, where, s.Fields, m.Fields)
		}
	}
	// Every member at every depth: tk_core 47, tk_data v6.13 94, v6.15
	// 96, v6.17 112 and v7.1 120 (each with four anonymous unions),
	// tk_fast 4 (and 8 in each element of base[2]), mg_floor 1, guohui
	// 48, rt 48: as structs/dwarf_test.go counts them, anonymous unions
	// included.
	const want = 47 + 94 + 96 + 112 + 120 + 4 + 1 + 48 + 48
	if total != want {
		t.Errorf("compared %d members, want %d", total, want)
	}
	t.Logf("%d members compared with the built-in models", total)
}

// compareFields compares two member lists one by one, array elements
// included, and returns the number compared.
func compareFields(t *testing.T, where string, got, want []layout.Field) int {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d members, the model has %d", where, len(got), len(want))
		return 0
	}
	n := 0
	for i := range got {
		g, w := &got[i], &want[i]
		gs := fmt.Sprintf("%s at %d size %d %v len %d depth %d parent %d", g.Path, g.Offset, g.Size, g.Kind, g.Len, g.Depth, g.Parent)
		ws := fmt.Sprintf("%s at %d size %d %v len %d depth %d parent %d", w.Path, w.Offset, w.Size, w.Kind, w.Len, w.Depth, w.Parent)
		if gs != ws {
			t.Errorf("%s: member %d is %s, the model's %s", where, i, gs, ws)
			continue
		}
		n++
		if (g.Elem == nil) != (w.Elem == nil) {
			t.Errorf("%s: %s has element layout %v, the model %v", where, g.Path, g.Elem != nil, w.Elem != nil)
		} else if g.Elem != nil {
			compareFields(t, where+"."+g.Path+"[]", g.Elem.Fields, w.Elem.Fields)
		}
	}
	return n
}
