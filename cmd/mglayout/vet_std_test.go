package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

var vetStd = flag.Bool("vetstd", false, "time go vet -vettool over the standard library with mglayout and with fieldalignment")

// TestVetStd times go vet -vettool=TOOL std with mglayout and with
// golang.org/x/tools's fieldalignment, the reference a vet analyzer of
// struct layouts is held to, interleaved, and prints the times, their
// ratio and the number of findings of each. It asserts nothing about time.
//
//	go test ./cmd/mglayout -run TestVetStd -vetstd -v -timeout 1h
func TestVetStd(t *testing.T) {
	if !*vetStd {
		t.Skip("runs go vet over the standard library 8 times, minutes each: go test -run TestVetStd -vetstd -v -timeout 1h")
	}
	tools := []struct{ name, pkg string }{
		{"mglayout", "."},
		{"fieldalignment", "golang.org/x/tools/go/analysis/passes/fieldalignment/cmd/fieldalignment"},
	}
	const rounds = 3
	// go vet caches each package's analysis under the tool's identity,
	// the hash of its executable (-V=full), and reruns it only for a new
	// tool: each run gets a binary with a build ID of its own, never seen
	// before. All are built first, so that every run analyses the same
	// source.
	bins := make([][]string, len(tools))
	nonce := time.Now().UnixNano()
	for i, tool := range tools {
		for round := range rounds + 1 {
			id := fmt.Sprintf("-ldflags=-buildid=vetstd-%d-%s-%d", nonce, tool.name, round)
			bins[i] = append(bins[i], buildTool(t, tool.name, tool.pkg, id))
		}
	}
	times := make([][]time.Duration, len(tools))
	findings := make([]int, len(tools))
	// Round 0 warms the build cache: go vet compiles what it analyses
	// (the packages and their test variants) once, and caches it.
	for round := range rounds + 1 {
		order := []int{0, 1}
		if round%2 == 1 {
			slices.Reverse(order) // neither tool always runs on the other's heels
		}
		for _, i := range order {
			d, n := timeVet(t, bins[i][round])
			if round == 0 {
				t.Logf("warm-up: %s %.1fs", tools[i].name, d.Seconds())
				continue
			}
			t.Logf("round %d: %s %.1fs, %d findings", round, tools[i].name, d.Seconds(), n)
			times[i] = append(times[i], d)
			findings[i] = n
		}
	}
	median := func(ds []time.Duration) time.Duration {
		ds = slices.Sorted(slices.Values(ds))
		return ds[len(ds)/2]
	}
	m, fa := median(times[0]), median(times[1])
	t.Logf("go vet -vettool=TOOL std, %d CPUs, median of %d: mglayout %.1fs (%d findings), fieldalignment %.1fs (%d findings), ratio %.2f",
		runtime.NumCPU(), rounds, m.Seconds(), findings[0], fa.Seconds(), findings[1], m.Seconds()/fa.Seconds())
}

var diagnosticLine = regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: `)

// timeVet runs go vet -vettool=bin std and returns how long it took and
// how many findings it printed.
func timeVet(t *testing.T, bin string) (time.Duration, int) {
	t.Helper()
	cmd := exec.Command("go", "vet", "-vettool="+bin, "std")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
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
	return d, n
}
