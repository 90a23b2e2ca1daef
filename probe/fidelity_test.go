package probe

import (
	"context"
	goflag "flag"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mglayout/mglayout/probe/stats"
)

var (
	cfidelity       = goflag.Bool("cfidelity", false, "run the fidelity test against the C reference sweep (testdata/c/sweep.c, built with gcc)")
	cfidelityRounds = goflag.Int("cfidelity.rounds", 15, "rounds of the fidelity test")
	cfidelityDur    = goflag.Duration("cfidelity.duration", 100*time.Millisecond, "length of one run of the fidelity test")
)

// TestFidelity compares the Go sweep with the same sweep written in C
// (testdata/c/sweep.c at the repository root): in interleaved rounds, the
// Go harness (Sweep, d = 0 and the far control) and the C program at the
// same distances on the same two CPUs. Acceptance: the same-line slowdown
// (the writer's rate at d = 0 over its rate at the far control) of Go and
// C within 15 % of each other, and the uncontended writer of Go at least
// 90 % as fast as C's.
//
//	go test ./probe/ -run Fidelity -cfidelity -v
func TestFidelity(t *testing.T) {
	if !*cfidelity {
		t.Skip("the C fidelity test runs on demand: go test ./probe/ -run Fidelity -cfidelity -v (needs gcc and 2 CPUs)")
	}
	cpus := usable(t)[:2]
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Fatalf("the C reference needs gcc: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "sweep")
	src := filepath.Join("..", "testdata", "c", "sweep.c")
	if out, err := exec.Command(gcc, "-O2", "-pthread", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc -O2 -pthread %s: %v\n%s", src, err, out)
	}
	const far = 4096
	dur := *cfidelityDur
	rounds := *cfidelityRounds
	if rounds < 10 {
		t.Fatalf("-cfidelity.rounds %d: at least 10 are needed", rounds)
	}
	type sample struct{ writer, reader []float64 }
	goNear, goFar, cNear, cFar := &sample{}, &sample{}, &sample{}, &sample{}
	runC := func(d int64, into *sample) {
		out, err := exec.Command(bin, strconv.Itoa(cpus[0]), strconv.Itoa(cpus[1]), strconv.FormatInt(d, 10),
			strconv.FormatInt(dur.Milliseconds(), 10)).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", bin, err, out)
		}
		var w, r, el float64
		if _, err := fmt.Sscanf(strings.TrimSpace(string(out)), "writer=%g reader=%g elapsed=%g", &w, &r, &el); err != nil {
			t.Fatalf("the C sweep printed %q: %v", out, err)
		}
		into.writer = append(into.writer, w)
		into.reader = append(into.reader, r)
	}
	runGo := func() {
		r, err := Sweep(context.Background(), SweepOptions{Max: 0, Step: 8, Far: far, Duration: dur, Count: 1, CPUs: cpus})
		if err != nil {
			t.Fatal(err)
		}
		goNear.writer = append(goNear.writer, r.Points[0].Writer...)
		goNear.reader = append(goNear.reader, r.Points[0].Reader...)
		goFar.writer = append(goFar.writer, r.Far.Writer...)
		goFar.reader = append(goFar.reader, r.Far.Reader...)
	}
	start := time.Now()
	for range rounds {
		steps := []func(){runGo, func() { runC(0, cNear) }, func() { runC(far, cFar) }}
		rand.Shuffle(len(steps), func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
		for _, s := range steps {
			s()
		}
	}
	t.Logf("%d interleaved rounds of %v runs on CPUs %v in %v (%s/%s)", rounds, dur, cpus, time.Since(start).Round(time.Millisecond), runtime.GOOS, runtime.GOARCH)
	med := func(v []float64) float64 { return stats.Summarize(v).Median }
	for _, row := range []struct {
		name string
		s    *sample
	}{{"Go d=0", goNear}, {"Go d=4096", goFar}, {"C  d=0", cNear}, {"C  d=4096", cFar}} {
		w, r := stats.Summarize(row.s.writer), stats.Summarize(row.s.reader)
		t.Logf("%-10s writer %7.4g ops/s ± %-5s reader %7.4g ops/s ± %s", row.name, w.Median, w.RangePct(), r.Median, r.RangePct())
	}
	goRatio := med(goNear.writer) / med(goFar.writer)
	cRatio := med(cNear.writer) / med(cFar.writer)
	diff := goRatio/cRatio - 1
	t.Logf("same-line slowdown (writer at d=0 / writer at d=%d): Go %.3f, C %.3f, Go/C - 1 = %+.1f%% (acceptance: within ±15%%)", far, goRatio, cRatio, 100*diff)
	// The same figure paired within rounds, which cancels the drift of a
	// shared machine between rounds: for information.
	paired := func(near, far []float64) float64 {
		var r []float64
		for i := range near {
			r = append(r, near[i]/far[i])
		}
		return med(r)
	}
	goPaired, cPaired := paired(goNear.writer, goFar.writer), paired(cNear.writer, cFar.writer)
	t.Logf("  paired within rounds (median of the rounds' ratios): Go %.3f, C %.3f, Go/C - 1 = %+.1f%%", goPaired, cPaired, 100*(goPaired/cPaired-1))
	uncontended := med(goFar.writer) / med(cFar.writer)
	cmp := stats.Compare(cFar.writer, goFar.writer)
	t.Logf("uncontended writer: Go %.4g ops/s, C %.4g ops/s, Go = %.1f%% of C (%s %s) (acceptance: ≥ 90%%)",
		med(goFar.writer), med(cFar.writer), 100*uncontended, cmp.DeltaString(), cmp.PString())
	if diff < -0.15 || diff > 0.15 {
		t.Errorf("the same-line slowdown of Go (%.3f) and C (%.3f) differ by %+.1f%%, more than 15%%", goRatio, cRatio, 100*diff)
	}
	if uncontended < 0.90 {
		t.Errorf("the uncontended Go writer runs at %.1f%% of C's, below 90%%", 100*uncontended)
	}
}
