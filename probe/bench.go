package probe

import (
	"fmt"
	"io"
	"runtime"
	"strings"
)

// Config lines head a benchmark file, as go test writes them, so that
// benchstat can tell machines apart.
type Config struct {
	CPU string // the CPU's brand name
}

func (c Config) header(b *strings.Builder) {
	fmt.Fprintf(b, "goos: %s\ngoarch: %s\n", runtime.GOOS, runtime.GOARCH)
	if c.CPU != "" {
		fmt.Fprintf(b, "cpu: %s\n", c.CPU)
	}
	b.WriteString("pkg: github.com/mglayout/mglayout/probe\n")
}

// benchLine writes one sample in the Go benchmark format: the operations
// of the run and the time per operation.
func benchLine(b *strings.Builder, name string, procs int, opsPerSec, seconds float64) {
	n := int64(opsPerSec * seconds)
	if n < 1 || opsPerSec <= 0 {
		return
	}
	fmt.Fprintf(b, "%s-%d\t%d\t%.4g ns/op\t%.6g ops/s\n", name, procs, n, 1e9/opsPerSec, opsPerSec)
}

// WriteBench writes every sample of an experiment in the Go benchmark
// format, named BenchmarkProbe/model=M/path=P/writers=on|off, for
// benchstat (e.g. benchstat -col /model).
func WriteBench(w io.Writer, r *Result, c Config) error {
	var b strings.Builder
	c.header(&b)
	for _, cs := range r.Cases {
		writers := "on"
		if cs.Alone {
			writers = "off"
		}
		name := fmt.Sprintf("BenchmarkProbe/model=%s/path=%s/writers=%s", benchSafe(cs.Variant), benchSafe(cs.Path.Name), writers)
		for _, s := range cs.Samples {
			benchLine(&b, name, len(r.CPUs), s, r.Options.Duration.Seconds())
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteSweepBench writes a sweep in the Go benchmark format, named
// BenchmarkSweep/d=D/role=writer|reader.
func WriteSweepBench(w io.Writer, r *SweepResult, seconds float64, c Config) error {
	var b strings.Builder
	c.header(&b)
	for _, p := range append(r.Points[:len(r.Points):len(r.Points)], r.Far) {
		for _, role := range []struct {
			name    string
			samples []float64
		}{{"writer", p.Writer}, {"reader", p.Reader}} {
			for _, s := range role.samples {
				benchLine(&b, fmt.Sprintf("BenchmarkSweep/d=%d/role=%s", p.Distance, role.name), 2, s, seconds)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// benchSafe keeps a name component free of the characters the benchmark
// format gives a meaning: spaces end the name, slashes and equals signs
// separate keys and values.
func benchSafe(s string) string {
	return strings.NewReplacer(" ", "_", "/", "∕", "=", "≡").Replace(s)
}
