package falsesharing_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLinkerRuns checks what the analyzer assumes of the Go linker,
// against the linker: package-level variables of one size and one
// section (with or without pointers, zero or initialised with a
// constant) lie side by side in the order declared, whatever is declared
// between them.
func TestLinkerRuns(t *testing.T) {
	dir := t.TempDir()
	src := `package main

import "sync/atomic"

var hits atomic.Uint64
var limit = 81
var head *int
var misses atomic.Uint64
var burst = 82
var tail *int
var label = "x"
var drops uint64

func main() {
	hits.Add(1)
	misses.Add(1)
	drops++
	limit++
	burst++
	head, tail = &limit, &burst
	println(label)
}
`
	for name, text := range map[string]string{"go.mod": "module runs\n\ngo 1.22\n", "main.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "runs")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command("go", "tool", "nm", "-size", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	addr := map[string]uint64{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 4 && strings.HasPrefix(f[3], "main.") {
			a, err := strconv.ParseUint(f[0], 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			addr[strings.TrimPrefix(f[3], "main.")] = a
		}
	}
	for _, run := range [][]string{{"hits", "misses", "drops"}, {"limit", "burst"}, {"head", "tail"}} {
		for i := 1; i < len(run); i++ {
			a, b := addr[run[i-1]], addr[run[i]]
			if a == 0 || b == 0 || b != a+8 {
				t.Errorf("%s at %#x and %s at %#x: want them side by side, 8 bytes apart, in the order declared", run[i-1], a, run[i], b)
			}
		}
	}
}
