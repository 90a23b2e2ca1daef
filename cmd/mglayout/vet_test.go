package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/internal/vet"
)

func TestIsVetTool(t *testing.T) {
	for _, tc := range []struct {
		args string
		want bool
	}{
		{"-V=full", true},
		{"-flags", true},
		{"/tmp/go-build1/b001/vet.cfg", true},
		{"-falsesharing.arch=arm64 /tmp/go-build1/b001/vet.cfg", true},
		{"-falsesharing.lines 64,128 -fix -diff /tmp/go-build1/b001/vet.cfg", true},
		{"", false},
		{"vet ./...", false},
		{"help vet", false},
		{"-h", false},
		{"layout x.cfg", false}, // a command, whatever its arguments
	} {
		if got := vet.IsTool(strings.Fields(tc.args)); got != tc.want {
			t.Errorf("vet.IsTool(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// TestGoVetTool runs go vet -vettool with the mglayout binary, as CI does:
// the go command asks the binary for its identity (-V=full) and flags
// (-flags), then runs it on a vet.cfg per package and prints what it
// reports as file:line:col: message, relative to the directory of go vet.
func TestGoVetTool(t *testing.T) {
	bin := buildTool(t, "mglayout", ".")
	dir := writeModule(t, map[string]string{
		"shards/shards.go": "package shards\n\nimport \"sync/atomic\"\n\n" +
			"type Counter struct {\n" +
			"\tshards [8]struct{ n atomic.Int64 }\n" + // line 6: FS1
			"}\n\n" +
			"func (c *Counter) Add(cpu int) { c.shards[cpu%8].n.Add(1) }\n",
		"clean/clean.go": "package clean\n\nimport \"sync/atomic\"\n\n" +
			"type Counter struct {\n" +
			"\tshards [8]struct {\n\t\tn atomic.Int64\n\t\t_ [120]byte\n\t}\n" +
			"}\n\n" +
			"func (c *Counter) Add(cpu int) { c.shards[cpu%8].n.Add(1) }\n",
		"ctr/ctr.go": "package ctr\n\nimport \"sync/atomic\"\n\n" +
			"type Counter struct{ n int64 }\n\n" +
			"func (c *Counter) Inc() { atomic.AddInt64(&c.n, 1) }\n",
		"use/use.go": "package use\n\nimport \"example.com/m/ctr\"\n\n" +
			"type Counters struct {\n" +
			"\tcs [8]ctr.Counter\n" + // line 6: FS1, by ctr's facts
			"}\n\n" +
			"func (t *Counters) Add(cpu int) { t.cs[cpu%8].Inc() }\n",
	})
	govet := func(args ...string) (stdout, stderr string, status int) {
		t.Helper()
		cmd := goCommand(dir, append([]string{"vet", "-vettool=" + bin}, args...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("go vet %s: %v", strings.Join(args, " "), err)
		}
		return out.String(), errb.String(), cmd.ProcessState.ExitCode()
	}

	// A dependency that go vet runs the tool on only for its facts
	// (VetxOnly) still records them: ctr's Counter is hot. (Vetting ctr
	// itself first would leave its facts in go vet's cache.)
	_, stderr, _ := govet("./use")
	if !regexp.MustCompile(`(?m)^use/use\.go:6:\d+: .+ \(FS1, proven\)$`).MatchString(stderr) {
		t.Errorf("go vet ./use has no FS1 finding at use/use.go:6, from the facts of its dependency ctr:\n%s", stderr)
	}

	_, stderr, status := govet("./clean")
	if status != 0 || stderr != "" {
		t.Errorf("go vet on a correctly padded counter: exit status %d, stderr:\n%s", status, stderr)
	}

	_, stderr, status = govet("./...")
	if status == 0 {
		t.Errorf("go vet on an unpadded sharded counter: exit status 0, want non-zero")
	}
	if !regexp.MustCompile(`(?m)^shards/shards\.go:6:\d+: .+ \(FS1, proven\)$`).MatchString(stderr) {
		t.Errorf("go vet stderr has no FS1 finding at shards/shards.go:6:\n%s", stderr)
	}
	if strings.Contains(stderr, "clean") {
		t.Errorf("go vet reported the padded counter:\n%s", stderr)
	}

	// The analyzer's flags pass through go vet.
	_, stderr, status = govet("-falsesharing.lines=96", "./clean")
	if status == 0 || !strings.Contains(stderr, "line size 96 is not a power of two") {
		t.Errorf("go vet -falsesharing.lines=96: exit status %d, want non-zero and the line size refused; stderr:\n%s", status, stderr)
	}

	// go vet -fix -diff prints the suggested fix, padding each shard.
	stdout, stderr, _ := govet("-fix", "-diff", "./shards")
	if !regexp.MustCompile(`(?m)^-\tshards \[8\]struct\{ n atomic\.Int64 \}$`).MatchString(stdout) ||
		!regexp.MustCompile(`(?m)^\+\t+_ \[\d+\]byte`).MatchString(stdout) {
		t.Errorf("go vet -fix -diff does not pad the shards; stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}

// buildTool builds the command in package pkg (a directory or an import
// path in this module) into the test's temporary directory.
func buildTool(t testing.TB, name, pkg string, flags ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a binary (-short)")
	}
	bin := filepath.Join(t.TempDir(), name)
	args := append(append([]string{"build", "-o", bin}, flags...), pkg)
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return bin
}

// writeModule writes a module example.com/m of the files, which import
// only the standard library, into a temporary directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// goCommand returns the go command for a module outside this one that
// needs nothing but the standard library.
func goCommand(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=")
	return cmd
}
