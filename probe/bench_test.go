package probe

import (
	"bytes"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
)

// benchResult is one parsed result, copied out of the reader.
type benchResult struct {
	name   string
	config map[string]string
	values map[string]float64
	iters  int
}

func readBench(t *testing.T, data []byte) []benchResult {
	t.Helper()
	r := benchfmt.NewReader(bytes.NewReader(data), "bench.txt")
	var out []benchResult
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", rec)
		case *benchfmt.Result:
			br := benchResult{name: string(rec.Name), config: map[string]string{}, values: map[string]float64{}, iters: rec.Iters}
			for _, c := range rec.Config {
				br.config[c.Key] = string(c.Value)
			}
			for _, v := range rec.Values {
				br.values[v.Unit] = v.Value
			}
			out = append(out, br)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func checkConfig(t *testing.T, rs []benchResult, cpu string) {
	t.Helper()
	for _, r := range rs {
		for k, want := range map[string]string{"goos": runtime.GOOS, "goarch": runtime.GOARCH, "cpu": cpu, "pkg": "github.com/mglayout/mglayout/probe"} {
			if r.config[k] != want {
				t.Errorf("%s: config %s = %q, want %q", r.name, k, r.config[k], want)
			}
		}
	}
}

// checkValues checks that every sample of a name (under the given
// configuration) came out, in order, with its rate and the matching time
// per operation.
func checkValues(t *testing.T, rs []benchResult, name string, config map[string]string, samples []float64, seconds float64) {
	t.Helper()
	var got []benchResult
	for _, r := range rs {
		match := r.name == name
		for k, v := range config {
			match = match && r.config[k] == v
		}
		if match {
			got = append(got, r)
		}
	}
	if len(got) != len(samples) {
		t.Errorf("%s: %d results, want one per sample (%d)", name, len(got), len(samples))
		return
	}
	for i, r := range got {
		// The reader tidies ns/op into sec/op, as benchstat shows it.
		ops, ok1 := r.values["ops/s"]
		sec, ok2 := r.values["sec/op"]
		ns := sec * 1e9
		if !ok1 || !ok2 || len(r.values) != 2 {
			t.Errorf("%s: units %v, want ns/op (read as sec/op) and ops/s", name, r.values)
			continue
		}
		if math.Abs(ops/samples[i]-1) > 1e-5 {
			t.Errorf("%s #%d: %v ops/s, want %v", name, i, ops, samples[i])
		}
		if math.Abs(ns*samples[i]/1e9-1) > 1e-3 {
			t.Errorf("%s #%d: %v ns/op, want %v", name, i, ns, 1e9/samples[i])
		}
		if want := int(samples[i] * seconds); r.iters != want {
			t.Errorf("%s #%d: %d iterations, want %d", name, i, r.iters, want)
		}
	}
}

func TestWriteBenchParses(t *testing.T) {
	paths := mustParse(t, "ktime_get seqread=seq read=timekeeper.xtime_sec", "coarse_real seqread=seq read=timekeeper.xtime_sec")
	samples := [][]float64{{7.1e7, 7.3e7, 6.9e7}, {7.0e7, 7.05e7, 7.2e7}, {1.04e8, 1.05e8, 1.02e8}, {250.5, 249.9, 250.1}}
	r := &Result{
		Cases: []*Case{
			{Variant: "tk_core@v6.1", Path: paths[0], Samples: samples[0]},
			{Variant: "tk_core@v6.1", Path: paths[0], Alone: true, Samples: samples[1]},
			{Variant: "tk_core@v6.1+guohui", Path: paths[1], Samples: samples[2]},
			// Names with the characters the format gives a meaning.
			{Variant: "example.com/m.T a=b", Path: paths[1], Samples: samples[3]},
		},
		Rounds:  3,
		CPUs:    []int{0, 1},
		Options: Options{Duration: 200 * time.Millisecond},
	}
	var buf bytes.Buffer
	if err := WriteBench(&buf, r, Config{CPU: "Test CPU @ 3.00GHz"}); err != nil {
		t.Fatal(err)
	}
	rs := readBench(t, buf.Bytes())
	if len(rs) != 12 {
		t.Errorf("%d results, want 12:\n%s", len(rs), buf.String())
	}
	if !strings.Contains(buf.String(), " ns/op ") || !strings.Contains(buf.String(), " ops/s\n") {
		t.Errorf("the units are not ns/op and ops/s:\n%s", buf.String())
	}
	checkConfig(t, rs, "Test CPU @ 3.00GHz")
	checkValues(t, rs, "Probe/writers=on-2", map[string]string{"model": "tk_core@v6.1", "path": "ktime_get"}, samples[0], 0.2)
	checkValues(t, rs, "Probe/writers=off-2", map[string]string{"model": "tk_core@v6.1", "path": "ktime_get"}, samples[1], 0.2)
	checkValues(t, rs, "Probe/writers=on-2", map[string]string{"model": "tk_core@v6.1+guohui", "path": "coarse_real"}, samples[2], 0.2)
	// A variant with the characters the name syntax gives a meaning
	// comes back whole, as configuration.
	checkValues(t, rs, "Probe/writers=on-2", map[string]string{"model": "example.com/m.T a=b", "path": "coarse_real"}, samples[3], 0.2)
	// Every name splits into writers and GOMAXPROCS, as benchstat splits
	// it.
	for _, res := range rs {
		base, parts := benchfmt.Name(res.name).Parts()
		var keys []string
		for _, p := range parts {
			s := string(p)
			if strings.HasPrefix(s, "-") {
				keys = append(keys, "procs")
				continue
			}
			k, _, ok := strings.Cut(strings.TrimPrefix(s, "/"), "=")
			if !ok {
				t.Errorf("%s: part %q is not key=value", res.name, s)
			}
			keys = append(keys, k)
		}
		if string(base) != "Probe" || !slices.Equal(keys, []string{"writers", "procs"}) {
			t.Errorf("%s: base %q, parts %v; want Probe with writers and procs", res.name, base, keys)
		}
	}
}

func TestWriteSweepBenchParses(t *testing.T) {
	r := &SweepResult{
		Points: []*SweepPoint{
			{Distance: 0, Writer: []float64{3.8e7, 3.9e7}, Reader: []float64{9.3e8, 9.4e8}},
			{Distance: 64, Writer: []float64{1.9e8, 1.95e8}, Reader: []float64{3.6e9, 3.7e9}},
		},
		Far:    &SweepPoint{Distance: 4096, Writer: []float64{1.87e8, 1.9e8}, Reader: []float64{2.8e9, 2.9e9}},
		CPUs:   [2]int{0, 1},
		Rounds: 2,
	}
	var buf bytes.Buffer
	if err := WriteSweepBench(&buf, r, 0.05, Config{CPU: "Some CPU"}); err != nil {
		t.Fatal(err)
	}
	rs := readBench(t, buf.Bytes())
	if len(rs) != 12 {
		t.Errorf("%d results, want 12:\n%s", len(rs), buf.String())
	}
	checkConfig(t, rs, "Some CPU")
	for _, p := range []*SweepPoint{r.Points[0], r.Points[1], r.Far} {
		checkValues(t, rs, "Sweep/d="+strconv.FormatInt(p.Distance, 10)+"/role=writer-2", nil, p.Writer, 0.05)
		checkValues(t, rs, "Sweep/d="+strconv.FormatInt(p.Distance, 10)+"/role=reader-2", nil, p.Reader, 0.05)
	}
}

// TestWriteBenchNoCPU: without a CPU name there is no cpu line, and the
// output still parses.
func TestWriteBenchNoCPU(t *testing.T) {
	r := &SweepResult{Points: []*SweepPoint{{Distance: 0, Writer: []float64{1e8}, Reader: []float64{1e9}}},
		Far: &SweepPoint{Distance: 4096, Writer: []float64{1e8}, Reader: []float64{1e9}}}
	var buf bytes.Buffer
	if err := WriteSweepBench(&buf, r, 0.05, Config{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "cpu:") {
		t.Errorf("a cpu line without a CPU name:\n%s", buf.String())
	}
	if rs := readBench(t, buf.Bytes()); len(rs) != 4 {
		t.Errorf("%d results, want 4", len(rs))
	}
}
