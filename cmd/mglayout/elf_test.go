package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/internal/kernelfacts"
	"github.com/mglayout/mglayout/structs"
)

// mglayout runs the command and returns its exit status and output.
func mglayout(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestELFKernel compiles tk_layout.c before and after Guo Hui's padding
// and checks that check and diff on the objects' tk_core_v6_1, with the
// access paths of the tk_core@v6.1 model in a paths file, say what they
// say about the built-in models: the same exit status and the same text
// but for the structs' names.
func TestELFKernel(t *testing.T) {
	src := filepath.Join(kernelfacts.Dir(), "tk_layout.c")
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found in PATH: the test compiles " + src)
	}
	dir := t.TempDir()
	compile := func(obj string, defines ...string) string {
		out := filepath.Join(dir, obj)
		args := append([]string{"-g", "-O0", "-DSMP_CACHE_BYTES=64"}, defines...)
		args = append(args, "-c", src, "-o", out)
		if msg, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
			t.Fatalf("gcc %s: %v\n%s", strings.Join(args, " "), err, msg)
		}
		return out
	}
	before, after := compile("tk.o"), compile("tk_guohui.o", "-DGUOHUI_PADDING")

	paths, err := structs.Paths("tk_core@v6.1", "amd64")
	if err != nil {
		t.Fatal(err)
	}
	var file strings.Builder
	file.WriteString("# The access paths of the built-in model tk_core@v6.1.\n[tk_core_v6_1]\n")
	for _, p := range paths {
		file.WriteString(p.String() + " -- " + p.Doc + "\n")
	}
	pathsFile := filepath.Join(dir, "tk_core.paths")
	if err := os.WriteFile(pathsFile, []byte(file.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := mglayout("layout", "-elf", before, "-type", "tk_core_v6_1", "-lines", "64"); code != 0 {
		t.Fatalf("layout -elf: exit %d: %s", code, stderr)
	}

	for _, tc := range []struct {
		name       string
		elf, model []string
		rename     *strings.Replacer
	}{
		{
			"diff",
			[]string{"diff", "-elf", before, "-elf", after, "-type", "tk_core_v6_1", "-paths", pathsFile, "-lines", "64,128"},
			[]string{"diff", "tk_core@v6.1", "tk_core@v6.1+guohui", "-lines", "64,128"},
			strings.NewReplacer("tk_core_v6_1 → tk_core_v6_1", "tk_core@v6.1 → tk_core@v6.1+guohui"),
		},
		{
			"check",
			[]string{"check", "-elf", before, "-type", "tk_core_v6_1", "-paths", pathsFile, "-lines", "64,128"},
			[]string{"check", "tk_core@v6.1", "-lines", "64,128"},
			strings.NewReplacer("tk_core_v6_1 (dwarf,", "tk_core@v6.1 (kernel,"),
		},
	} {
		codeELF, outELF, errELF := mglayout(tc.elf...)
		codeModel, outModel, errModel := mglayout(tc.model...)
		if codeELF != codeModel || errELF != errModel {
			t.Errorf("%s: -elf exits %d (%q), the models %d (%q)", tc.name, codeELF, errELF, codeModel, errModel)
		}
		if got := tc.rename.Replace(outELF); got != outModel {
			t.Errorf("%s -elf says\n%s\nthe models\n%s", tc.name, got, outModel)
		}
		if tc.name == "diff" && codeELF != 1 {
			t.Errorf("diff: exit %d, want 1 (the padding regresses 64-byte lines)", codeELF)
		}
	}
}

// TestReadmeELF runs the README's -elf examples as written, from the
// repository root, and checks that each mglayout command prints what the
// README shows (up to a "..." line) and exits as "echo $?" says.
func TestReadmeELF(t *testing.T) {
	src := filepath.Join(kernelfacts.Dir(), "tk_layout.c")
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found in PATH: the examples compile " + src)
	}
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if rel, err := filepath.Rel(root, src); err != nil || rel != filepath.Join("internal", "kernelfacts", "testdata", "tk_layout.c") {
		t.Fatalf("the examples compile internal/kernelfacts/testdata/tk_layout.c from the repository root; it is at %s", src)
	}
	start := strings.Index(readme, "#### C structs and Go binaries from DWARF")
	end := strings.Index(readme, "### Access paths")
	if start < 0 || end < start {
		t.Fatal("README has no section on -elf before Access paths")
	}
	blocks := strings.Split(readme[start:end], "```\n")
	dir := t.TempDir()
	commands := 0
	for b := 1; b < len(blocks); b += 2 {
		block := blocks[b]
		if strings.HasPrefix(block, "# tk_core before and after") {
			// The paths file the diff example reads, shipped as the
			// README shows it.
			shipped, err := os.ReadFile(filepath.Join(root, "internal", "kernelfacts", "testdata", "tk_core.paths"))
			if err != nil || string(shipped) != block {
				t.Errorf("internal/kernelfacts/testdata/tk_core.paths is not the file the README shows (%v)", err)
			}
			continue
		}
		var out []string // what the last mglayout command printed
		var code int
		line := 0 // the next line of out that the README shows
		for _, text := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
			cmd, isCmd := strings.CutPrefix(text, "$ ")
			switch {
			case isCmd && cmd == "echo $?":
				out, line = []string{fmt.Sprint(code)}, 0
			case isCmd:
				args := strings.Fields(cmd)
				for i, a := range args {
					switch {
					case strings.HasSuffix(a, ".o"):
						args[i] = filepath.Join(dir, a)
					case strings.HasSuffix(a, ".paths"):
						// Shipped in the repository.
						args[i] = filepath.Join(root, a)
					}
				}
				if args[0] == "gcc" {
					c := exec.Command("gcc", args[1:]...)
					c.Dir = root
					if msg, err := c.CombinedOutput(); err != nil {
						t.Fatalf("%s: %v\n%s", cmd, err, msg)
					}
					continue
				}
				var stdout string
				code, stdout, _ = mglayout(args[1:]...)
				out, line = strings.Split(stdout, "\n"), 0
				commands++
			case text == "...":
				out = nil
			case out != nil:
				if line >= len(out) || out[line] != text {
					got := "(nothing)"
					if line < len(out) {
						got = out[line]
					}
					t.Errorf("README shows %q, the command prints %q", text, got)
					out = nil
					continue
				}
				line++
			}
		}
	}
	if commands < 4 {
		t.Errorf("ran %d mglayout commands from the README, want at least 4", commands)
	}
}
