package tables_test

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/tables"
)

// TestClocks measures the clock reads briefly and checks their table:
// the rows, the 2018 figures' source, the note on too few rounds, no line
// over 80 columns, and why the C rows are missing where they are.
func TestClocks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the clock rows are Linux's")
	}
	r, err := probe.Clocks(context.Background(), probe.ClockOptions{Duration: 20 * time.Millisecond, Count: 2})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tables.Clocks(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"time.Now  ", "REALTIME+MONOTONIC", "unix.ClockGettime             REALTIME_COARSE  ", "Arnd Bergmann, 25 Jun 2018", "2 rounds are too few"} {
		if !strings.Contains(out, want) {
			t.Errorf("Clocks lacks %q:\n%s", want, out)
		}
	}
	// Reports go into mails: no line wraps at 80 columns.
	for line := range strings.Lines(out) {
		if n := utf8.RuneCountInString(strings.TrimSuffix(line, "\n")); n > 80 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
	for _, row := range r.Rows {
		if strings.Contains(row.Missing, "without cgo") && !strings.Contains(out, "not measured:\n  C clock_gettime(CLOCK_REALTIME)") {
			t.Errorf("Clocks does not say why the C rows are missing:\n%s", out)
			break
		}
	}
}

// TestClocksMissing checks the table of a result whose rows could not
// all be measured, and the comparison of coarse with fine.
func TestClocksMissing(t *testing.T) {
	row := func(call, clock, via string, coarse bool) *probe.ClockRow {
		return &probe.ClockRow{Name: call + "(" + clock + ")", Call: call, Clock: clock, Via: via, Coarse: coarse, How: "how " + call + " reads it"}
	}
	fine, coarse := row("C clock_gettime", "CLOCK_REALTIME", "vDSO", false), row("C clock_gettime", "CLOCK_REALTIME_COARSE", "vDSO", true)
	fine.Samples, coarse.Samples = []float64{20, 21, 19, 20, 22, 20}, []float64{5, 5, 6, 5, 5, 5}
	fine.Reference, coarse.Reference = 37.18, 6.44 // the 2018 vDSO figures
	sysFine, sysCoarse := row("C syscall", "SYS_clock_gettime, CLOCK_REALTIME", "syscall", false), row("C syscall", "SYS_clock_gettime, CLOCK_REALTIME_COARSE", "syscall", true)
	sysFine.Missing, sysCoarse.Missing = "built without cgo", "built without cgo"
	r := &probe.ClockResult{Rows: []*probe.ClockRow{fine, coarse, sysFine, sysCoarse}, Rounds: 6, CPU: 0, Clocksource: "tsc", CoarseResolution: 4 * time.Millisecond,
		Options: probe.ClockOptions{Duration: 200 * time.Millisecond, Count: 6}, Reference: probe.ClockReference2018}
	var b bytes.Buffer
	if err := tables.Clocks(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"C clock_gettime  REALTIME         vDSO  20.00 ± ",
		"C clock_gettime  vDSO  20.00 → 5.00   -75.00% (p=0.002)  -83%",
		"not measured:\n  C syscall(SYS_clock_gettime, CLOCK_REALTIME), C syscall(SYS_clock_gettime,\n    CLOCK_REALTIME_COARSE): built without cgo.\n",
		"clocksource: tsc",
		"resolution 4ms",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Clocks lacks %q:\n%s", want, out)
		}
	}
	r.Interrupted = true
	b.Reset()
	if err := tables.Clocks(&b, r); err != nil || !strings.Contains(b.String(), "INCOMPLETE") {
		t.Errorf("an interrupted result is not marked (%v):\n%s", err, b.String())
	}
}

// TestKernel runs the pipe workloads briefly and checks their table.
func TestKernel(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the kernel workloads are Linux's")
	}
	r, err := probe.Kernel(context.Background(), probe.KernelOptions{Duration: 20 * time.Millisecond, Count: 2})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tables.Kernel(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"kernel: Linux " + r.Release, "nearest model: " + r.Model, "pipe1_threads  ", "pipe_throughput  ", "per_thread_ops"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("Kernel lacks %q:\n%s", want, b.String())
		}
	}
}

// TestSweepUndecidable checks a sweep whose rounds are too few for its
// tests: 6 rounds over 65 distances cannot make any distance significant
// after the correction, so a writer 85 % slower on its own line is no
// knee; the sweep is undecidable, not noisy, and its text says to run more
// rounds.
func TestSweepUndecidable(t *testing.T) {
	const fast, slow = 2e8, 3e7
	sample := func(center float64) []float64 {
		v := make([]float64, 6)
		for i := range v {
			v[i] = center * (1 + 0.001*float64(i))
		}
		return v
	}
	r := &probe.SweepResult{Far: &probe.SweepPoint{Distance: 4096, Writer: sample(fast), Reader: sample(fast)}, Rounds: 6, CPUs: [2]int{0, 1}}
	for d := int64(0); d <= 512; d += 8 {
		rate := fast
		if d < 64 {
			rate = slow
		}
		r.Points = append(r.Points, &probe.SweepPoint{Distance: d, Writer: sample(rate), Reader: sample(fast)})
	}
	if in := r.Interference(); in.Kind != probe.Undecidable || in.Distance != 0 || in.Decidable() {
		t.Errorf("%s, distance %d, decidable %v; want undecidable, 0 and not decidable", in.Kind, in.Distance, in.Decidable())
	}
	var b strings.Builder
	if err := tables.Sweep(&b, r); err != nil {
		t.Fatal(err)
	}
	if want := "6 rounds cannot show a distance significant over the sweep's 65 tests"; !strings.Contains(strings.Join(strings.Fields(b.String()), " "), want) {
		t.Errorf("the sweep's text does not say %q:\n%s", want, b.String())
	}
}
