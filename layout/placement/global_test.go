package placement

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
)

// globalVars are package-level variables of assorted sizes, zeroed and
// initialized, with and without pointers, so that they land in each of the
// linker's data sections (.bss, .noptrbss, .data, .noptrdata).
var globalVars = []struct{ name, decl string }{
	{"b1", "[1]byte"},
	{"b3", "[3]byte"},
	{"b5", "[5]byte"},
	{"b8", "[8]byte"},
	{"b12", "[12]byte"},
	{"b24", "[24]byte"},
	{"b40", "[40]byte"},
	{"b64", "[64]byte"},
	{"b100", "[100]byte"},
	{"b200", "[200]byte"},
	{"b4096", "[4096]byte"},
	{"d3", "= [3]byte{1, 2, 3}"},
	{"d24", "= [3]uint64{1, 2, 3}"},
	{"d40", "= [5]uint64{1}"},
	{"p1", "*int"},
	{"p3", "[3]*int"},
	{"p5", "[5]*int"},
	{"s", "= \"a string header\""},
}

// TestGlobalAgainstLinker builds a program with the variables for several
// GOARCHes and checks that the address of each, read from the ELF symbol
// table, is on a phase that Global predicts for the symbol's size. Building
// for other GOARCHes needs no emulator, only the time to compile their
// runtime, so -short keeps to amd64.
func TestGlobalAgainstLinker(t *testing.T) {
	goEnv(t, "GOROOT") // skips without a go command
	goarches := []string{"amd64", "386", "arm", "arm64", "s390x"}
	if testing.Short() {
		goarches = goarches[:1]
	}
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("package main\n\nvar (\n")
	var refs []string
	for _, v := range globalVars {
		fmt.Fprintf(&src, "\t%s %s\n", v.name, v.decl)
		refs = append(refs, "&"+v.name)
	}
	fmt.Fprintf(&src, ")\n\nfunc main() { println(%s) }\n", strings.Join(refs, ", "))
	writeTestFile(t, filepath.Join(dir, "main.go"), src.String())
	writeTestFile(t, filepath.Join(dir, "go.mod"), "module globals\n\ngo 1.26\n")

	for _, goarch := range goarches {
		t.Run(goarch, func(t *testing.T) {
			t.Parallel()
			exe := filepath.Join(dir, "globals-"+goarch)
			cmd := exec.Command("go", "build", "-o", exe, ".")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+goarch, "CGO_ENABLED=0", "GOFLAGS=")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			f, err := elf.Open(exe)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			syms, err := f.Symbols()
			if err != nil {
				t.Fatal(err)
			}
			found := 0
			for _, sym := range syms {
				name, ok := strings.CutPrefix(sym.Name, "main.")
				if !ok || !slices.ContainsFunc(globalVars, func(v struct{ name, decl string }) bool { return v.name == name }) {
					continue
				}
				found++
				s := &layout.Struct{Name: name, Source: layout.SourceGo, Arch: goarch, Size: int64(sym.Size), Align: 1}
				for _, line := range []int64{64, 128} {
					p, err := Phases(s, line, Global)
					if err != nil {
						t.Fatal(err)
					}
					if phase := int64(sym.Value) % int64(line); !slices.Contains(p.Phases, phase) {
						t.Errorf("%s (%d B) at %#x, phase %d of %d; predicted %v (%s)", name, sym.Size, sym.Value, phase, line, p.Phases, p.Reason)
					}
				}
			}
			if found != len(globalVars) {
				t.Errorf("found %d of the %d variables in the symbol table", found, len(globalVars))
			}
		})
	}
}

func writeTestFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
}
