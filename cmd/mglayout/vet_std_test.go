package main

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkVetStd times go vet -vettool=TOOL std with mglayout
// (tool=mglayout) and with golang.org/x/tools's fieldalignment
// (tool=fieldalignment), the reference a vet analyzer of struct layouts
// is held to, and reports the findings of each. Each run gets a binary
// with a build ID of its own, built before the timer starts: go vet
// caches a package's analysis under the tool's identity (-V=full) and
// reruns it only for a tool it has not seen. One untimed run first warms
// the build cache (go vet compiles what it analyses once); give -count
// and compare with benchstat:
//
//	go test ./cmd/mglayout -run '^$' -bench VetStd -count 4 -timeout 1h | benchstat -col /tool -
func BenchmarkVetStd(b *testing.B) {
	nonce := time.Now().UnixNano()
	warmStd.Do(func() {
		vetStd(b, buildTool(b, "mglayout", ".", fmt.Sprintf("-ldflags=-buildid=vetstd-%d-warm", nonce)))
	})
	for _, tool := range []struct{ name, pkg string }{
		{"mglayout", "."},
		{"fieldalignment", "golang.org/x/tools/go/analysis/passes/fieldalignment/cmd/fieldalignment"},
	} {
		b.Run("tool="+tool.name, func(b *testing.B) {
			var findings int
			for b.Loop() {
				b.StopTimer()
				bin := buildTool(b, tool.name, tool.pkg, fmt.Sprintf("-ldflags=-buildid=vetstd-%d-%s-%d", nonce, tool.name, vetStdRuns.Add(1)))
				b.StartTimer()
				findings = vetStd(b, bin)
			}
			b.ReportMetric(float64(findings), "findings")
		})
	}
}

// warmStd warms the build cache for BenchmarkVetStd once per process;
// vetStdRuns numbers its runs, each a build ID of its own (-count runs a
// sub-benchmark again, not the benchmark that names it).
var (
	warmStd    sync.Once
	vetStdRuns atomic.Int64
)

var diagnosticLine = regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: `)

// vetStd runs go vet -vettool=bin std and returns how many findings it
// printed.
func vetStd(t testing.TB, bin string) int {
	t.Helper()
	cmd := exec.Command("go", "vet", "-vettool="+bin, "std")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	n := len(diagnosticLine.FindAllIndex(stderr.Bytes(), -1))
	// Anything else but the "# package" headers is worth seeing.
	var other []string
	for line := range strings.Lines(stderr.String()) {
		if !diagnosticLine.MatchString(line) && !strings.HasPrefix(line, "# ") {
			other = append(other, strings.TrimSpace(line))
		}
	}
	if len(other) > 0 {
		t.Logf("go vet -vettool=%s std also printed %d other lines, first: %s", bin, len(other), strings.Join(other[:min(5, len(other))], " | "))
	}
	// go vet exits 1 when the tool reports anything; a failure that
	// reports nothing is the tool's or the go command's.
	var exit *exec.ExitError
	if err != nil && (!errors.As(err, &exit) || n == 0) {
		tail := stderr.Bytes()[max(0, stderr.Len()-2000):]
		t.Fatalf("go vet -vettool=%s std: %v\n%s", bin, err, tail)
	}
	return n
}
