package probe

import (
	"fmt"
	"io"
	"runtime"

	"golang.org/x/perf/benchfmt"
)

// Config lines head a benchmark file, as go test writes them, so that
// benchstat can tell machines apart.
type Config struct {
	CPU string // the CPU's brand name
}

// benchWriter writes samples in the Go benchmark format through
// benchfmt's writer: file configuration (the machine, and per result the
// variant and path, which may hold any character) and one line per
// sample with its operations, time per operation and rate.
type benchWriter struct {
	w       *benchfmt.Writer
	machine []benchfmt.Config
}

func newBenchWriter(w io.Writer, c Config) *benchWriter {
	machine := []benchfmt.Config{
		{Key: "goos", Value: []byte(runtime.GOOS), File: true},
		{Key: "goarch", Value: []byte(runtime.GOARCH), File: true},
	}
	if c.CPU != "" {
		machine = append(machine, benchfmt.Config{Key: "cpu", Value: []byte(c.CPU), File: true})
	}
	machine = append(machine, benchfmt.Config{Key: "pkg", Value: []byte("github.com/mglayout/mglayout/probe"), File: true})
	return &benchWriter{w: benchfmt.NewWriter(w), machine: machine}
}

// sample writes one sample: the operations of a run of the given length
// at the given rate. A sample of no operation is left out.
func (b *benchWriter) sample(name string, procs int, config map[string]string, keys []string, opsPerSec, seconds float64) error {
	n := int(opsPerSec * seconds)
	if n < 1 || opsPerSec <= 0 {
		return nil
	}
	cfg := append([]benchfmt.Config(nil), b.machine...)
	for _, k := range keys {
		cfg = append(cfg, benchfmt.Config{Key: k, Value: []byte(config[k]), File: true})
	}
	return b.w.Write(&benchfmt.Result{
		Config: cfg,
		Name:   benchfmt.Name(fmt.Sprintf("%s-%d", name, procs)),
		Iters:  n,
		Values: []benchfmt.Value{{Value: 1e9 / opsPerSec, Unit: "ns/op"}, {Value: opsPerSec, Unit: "ops/s"}},
	})
}

// WriteBench writes every sample of an experiment in the Go benchmark
// format, named BenchmarkProbe/writers=on|off, under the configuration
// keys model and path, for benchstat (e.g. benchstat -col model).
func WriteBench(w io.Writer, r *Result, c Config) error {
	b := newBenchWriter(w, c)
	for _, cs := range r.Cases {
		writers := "on"
		if cs.Alone {
			writers = "off"
		}
		config := map[string]string{"model": cs.Variant, "path": cs.Path.Name}
		for _, s := range cs.Samples {
			if err := b.sample("Probe/writers="+writers, len(r.CPUs), config, []string{"model", "path"}, s, r.Options.Duration.Seconds()); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteSweepBench writes a sweep in the Go benchmark format, named
// BenchmarkSweep/d=D/role=writer|reader.
func WriteSweepBench(w io.Writer, r *SweepResult, seconds float64, c Config) error {
	b := newBenchWriter(w, c)
	for _, p := range append(r.Points[:len(r.Points):len(r.Points)], r.Far) {
		for _, role := range []struct {
			name    string
			samples []float64
		}{{"writer", p.Writer}, {"reader", p.Reader}} {
			for _, s := range role.samples {
				if err := b.sample(fmt.Sprintf("Sweep/d=%d/role=%s", p.Distance, role.name), 2, nil, nil, s, seconds); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
