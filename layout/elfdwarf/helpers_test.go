package elfdwarf

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
)

// featuresC is the C source that covers every feature the loader reads.
const featuresC = "../../testdata/c/layout_features.c"

// requireGCC skips the test when there is no gcc: it makes the objects
// and is the reference for their offsets.
func requireGCC(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found in PATH: the DWARF tests compile C sources with it")
	}
}

// gcc compiles src, copied into dir, to an object with the given flags
// and returns its path. It runs in dir with the source's base name, so
// that the DWARF names the file without a temporary directory.
func gcc(t testing.TB, dir, src, obj string, flags ...string) string {
	t.Helper()
	base := filepath.Base(src)
	if _, err := os.Stat(filepath.Join(dir, base)); err != nil {
		copyFile(t, src, filepath.Join(dir, base))
	}
	args := append(append([]string{}, flags...), "-c", base, "-o", obj)
	cmd := exec.Command("gcc", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return filepath.Join(dir, obj)
}

// gccCan reports whether gcc compiles with the flags here (-m32 needs
// multilib headers).
func gccCan(flags ...string) bool {
	dir, err := os.MkdirTemp("", "gcccan")
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "x.c")
	if os.WriteFile(src, []byte("#include <stddef.h>\nstruct s { long l; } v;\n"), 0o644) != nil {
		return false
	}
	args := append(append([]string{}, flags...), "-c", src, "-o", filepath.Join(dir, "x.o"))
	return exec.Command("gcc", args...).Run() == nil
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// symbolData returns the bytes of a symbol defined in an ELF file.
func symbolData(t testing.TB, f *elf.File, name string) []byte {
	t.Helper()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatalf("symbols: %v", err)
	}
	for _, s := range syms {
		if s.Name != name {
			continue
		}
		if int(s.Section) >= len(f.Sections) {
			t.Fatalf("%s in section %d", name, s.Section)
		}
		sec := f.Sections[s.Section]
		data, err := sec.Data()
		if err != nil || s.Value < sec.Addr || s.Value-sec.Addr+s.Size > uint64(len(data)) {
			t.Fatalf("%s is not in the data of %s: %v", name, sec.Name, err)
		}
		return data[s.Value-sec.Addr:][:s.Size]
	}
	t.Fatalf("no symbol %s", name)
	return nil
}

// byName indexes layouts by name.
func byName(structs []*layout.Struct) map[string]*layout.Struct {
	m := map[string]*layout.Struct{}
	for _, s := range structs {
		m[s.Name] = s
	}
	return m
}
