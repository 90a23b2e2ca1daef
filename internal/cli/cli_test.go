package cli

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/probe"
)

func testProgram() *Program {
	p := &Program{Summary: "mglayout does things."}
	p.Register(&Command{Name: "run", Short: "runs", Long: "Run runs.", Flags: func(fs *flag.FlagSet) func(*Context, []string) error {
		n := fs.Int("n", 0, "what to return: 1 a finding, 2 an interrupt, 3 a usage error")
		return func(ctx *Context, args []string) error {
			switch *n {
			case 1:
				return ErrFinding
			case 2:
				return ErrInterrupted
			case 3:
				return Usagef("bad\n  input")
			}
			ctx.Note(strings.Join(args, "|"))
			return nil
		}
	}})
	p.Register(&Command{Name: "a", Short: "first", Flags: func(fs *flag.FlagSet) func(*Context, []string) error {
		return func(*Context, []string) error { return nil }
	}})
	return p
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		stdout string
		stderr string
	}{
		{nil, 2, "", "Commands:\n\n\ta        first\n\trun      runs\n"},
		{[]string{"run", "x", "-n", "0", "y", "--", "-z"}, 0, "", "mglayout: note: x|y|-z\n"},
		{[]string{"run", "-n", "1"}, 1, "", ""},
		{[]string{"run", "-n", "2"}, 130, "", ""},
		{[]string{"run", "-n", "3"}, 2, "", "mglayout run: bad input\n"},
		{[]string{"run", "-m"}, 2, "", "mglayout run: flag provided but not defined: -m (run 'mglayout help run')\n"},
		{[]string{"nosuch"}, 2, "", `mglayout: unknown command "nosuch" (run 'mglayout help' for the list)` + "\n"},
		{[]string{"help", "run"}, 0, "usage: mglayout run [flags] \n\nRun runs.\n\nFlags:\n  -n int\n", ""},
		{[]string{"run", "-h"}, 0, "Run runs.\n", ""},
		{[]string{"help", "help"}, 0, "usage: mglayout help [command]", ""},
		{[]string{"help", "nosuch"}, 2, "", `mglayout help: unknown command "nosuch"`},
	} {
		var stdout, stderr bytes.Buffer
		status := testProgram().Run(tc.args, &stdout, &stderr)
		if status != tc.status || !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want %d, stdout with %q, stderr with %q",
				tc.args, status, stdout.String(), stderr.String(), tc.status, tc.stdout, tc.stderr)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for an error
	}{
		{nil, "text"},
		{[]string{"-json"}, "json"},
		{[]string{"-format", "json", "-json"}, "json"},
		{[]string{"-format", "markdown"}, "md"},
		{[]string{"-format", "md", "-json"}, ""},
		{[]string{"-format", "sarif"}, ""},
	} {
		var f Format
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		f.Register(fs, "text", "json", "md")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		got, err := f.Name()
		var usage *UsageError
		if tc.want == "" && !errors.As(err, &usage) || tc.want != "" && (err != nil || got != tc.want) {
			t.Errorf("%q: %q, %v; want %q", tc.args, got, err, tc.want)
		}
	}
}

func TestRoundProgress(t *testing.T) {
	var stderr bytes.Buffer
	progress := (&Context{Stderr: &stderr}).RoundProgress()
	for _, p := range []probe.Progress{{Round: 1, Rounds: 2, Run: 1, Runs: 3, What: "a"}, {Round: 1, Rounds: 2, Run: 2, Runs: 3, What: "b"},
		{Round: 2, Rounds: 2, Run: 1, Runs: 3, What: "a"}, {Round: 2, Rounds: 2, Run: 2, Runs: 3, What: "b"}} {
		progress(p)
	}
	if want := "mglayout: round 1/2, run 1/3: a\nmglayout: round 2/2, run 1/3: a\n"; stderr.String() != want {
		t.Errorf("progress printed %q, want %q", stderr.String(), want)
	}
}

func TestCPUs(t *testing.T) {
	if got, err := CPUOrder("3, 1,3"); err != nil || !slices.Equal(got, []int{3, 1, 3}) {
		t.Errorf("CPUOrder = %v, %v; want [3 1 3]", got, err)
	}
	if got, err := CPUs("2-4,0"); err != nil || !slices.Equal(got, []int{0, 2, 3, 4}) {
		t.Errorf("CPUs = %v, %v; want [0 2 3 4]", got, err)
	}
	for _, bad := range []string{"x", "1,-2"} {
		if _, err := CPUOrder(bad); err == nil || !strings.Contains(err.Error(), "-cpus "+bad) {
			t.Errorf("CPUOrder(%q) = %v, want an error naming -cpus", bad, err)
		}
		if _, err := CPUs(bad); err == nil || !strings.Contains(err.Error(), "-cpus "+bad) {
			t.Errorf("CPUs(%q) = %v, want an error naming -cpus", bad, err)
		}
	}
}

func TestWritable(t *testing.T) {
	dir := t.TempDir()
	if err := WritableFile(filepath.Join(dir, "new.txt")); err != nil {
		t.Errorf("new file in a temporary directory: %v", err)
	}
	if err := WritableFile(filepath.Join(dir, "no", "such.txt")); err == nil {
		t.Error("a file in a missing directory is writable, want an error")
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WritableFile(filepath.Join(file, "x")); err == nil {
		t.Error("a file under a plain file is writable, want an error")
	}
	if err := WritableDir(filepath.Join(dir, "a", "b")); err != nil {
		t.Errorf("WritableDir of a new directory: %v", err)
	}
	if err := WritableDir(filepath.Join(file, "d")); err == nil {
		t.Error("a directory under a plain file is writable, want an error")
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "a", "b"))
	if len(entries) != 0 {
		t.Errorf("WritableDir left %d files behind", len(entries))
	}
}
