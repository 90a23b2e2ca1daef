package probe

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/mglayout/mglayout/probe/stats"
)

// TestSweepFindsTheLine is the statistical acceptance test: with the
// reader on the writer's line (d < 64) the writer is significantly slower
// than with the reader on another line (d ≥ 64, and the far control), in
// interleaved rounds, n ≥ 10, p < 0.01, within 30 s.
func TestSweepFindsTheLine(t *testing.T) {
	cpus := usable(t)
	// 16 rounds of 6 distances at 50ms: 5 s of runs. Each side of the
	// line pools two or four distances, so n is 32 and 64.
	const rounds = 16
	start := time.Now()
	r, err := Sweep(context.Background(), SweepOptions{Max: 128, Step: 32, Far: 4096, Duration: 50 * time.Millisecond, Count: rounds, CPUs: cpus[:2]})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("sweep of %d distances × %d rounds took %v", len(r.Points)+1, r.Rounds, took)
	if took > 30*time.Second {
		t.Errorf("the sweep took %v, more than 30 s", took)
	}
	if r.Rounds != rounds || r.Interrupted {
		t.Fatalf("%d rounds, interrupted %v", r.Rounds, r.Interrupted)
	}
	at := map[int64]*SweepPoint{}
	for _, p := range append(slices.Clone(r.Points), r.Far) {
		at[p.Distance] = p
		if len(p.Writer) != rounds || len(p.Reader) != rounds {
			t.Fatalf("distance %d: %d writer and %d reader samples", p.Distance, len(p.Writer), len(p.Reader))
		}
		w, rd := stats.Summarize(p.Writer), stats.Summarize(p.Reader)
		t.Logf("d=%-4d writer %.3g ops/s ± %s, reader %.3g ops/s ± %s", p.Distance, w.Median, w.RangePct(), rd.Median, rd.RangePct())
	}
	// The verdict pools the distances on each side of the line, so that a
	// run disturbed by a neighbour on a shared machine does not decide it;
	// the pairs are logged.
	var nearW, farW []float64
	for _, near := range []int64{0, 32} {
		nearW = append(nearW, at[near].Writer...)
		for _, far := range []int64{64, 96, 128, 4096} {
			c := stats.Compare(at[far].Writer, at[near].Writer)
			t.Logf("writer at d=%d vs d=%d: %+.1f%% p=%.2g n=%d+%d", near, far, 100*c.Delta, c.P, c.N1, c.N2)
		}
	}
	for _, far := range []int64{64, 96, 128, 4096} {
		farW = append(farW, at[far].Writer...)
	}
	c := stats.Compare(farW, nearW)
	t.Logf("writer at d < 64 vs d ≥ 64: %+.1f%% p=%.2g n=%d+%d", 100*c.Delta, c.P, c.N1, c.N2)
	if c.P >= 0.01 || c.Delta >= 0 {
		t.Errorf("the writer with the reader at d < 64 is not significantly slower than at d ≥ 64: delta %+.1f%%, p=%.4f (want p < 0.01 and a slowdown)",
			100*c.Delta, c.P)
	}
	in := r.Interference()
	t.Logf("interference distance: %d", in.Distance)
	if in.Distance != 64 && in.Distance != 128 {
		t.Logf("note: the interference verdict is %d (64 expected, 128 where the adjacent-line prefetcher pairs lines)", in.Distance)
	}
}

// TestInterference checks the verdict on made-up samples: the smallest
// distance from which on the writer is never significantly (and by more
// than a few per cent) slower than at the far control.
func TestInterference(t *testing.T) {
	sample := func(center float64) []float64 {
		var v []float64
		for i := range 10 {
			v = append(v, center*(1+0.002*float64(i-5)))
		}
		return v
	}
	const fast, slow = 2e8, 4e7
	sweep := func(writers ...float64) *SweepResult {
		r := &SweepResult{Far: &SweepPoint{Distance: 4096, Writer: sample(fast)}, Rounds: 10}
		for i, w := range writers {
			r.Points = append(r.Points, &SweepPoint{Distance: int64(32 * i), Writer: sample(w)})
		}
		return r
	}
	for _, c := range []struct {
		name    string
		writers []float64
		kind    InterferenceKind
		want    int64
		slower  []int64
	}{
		{"line", []float64{slow, slow, fast, fast, fast}, Found, 64, []int64{0, 32}},
		{"pairs", []float64{slow, slow, slow, slow, fast, fast}, Found, 128, []int64{0, 32, 64, 96}},
		{"always", []float64{slow, slow, slow}, Everywhere, 0, []int64{0, 32, 64}},
		{"never", []float64{fast, fast, fast}, NoneFound, 0, nil},
		// 2 % slower is significant but within the noise of a shared VM.
		{"small", []float64{slow, 0.98 * fast, fast}, Found, 32, []int64{0}},
	} {
		in := sweep(c.writers...).Interference()
		var slower []int64
		for d := range in.Slower {
			slower = append(slower, d)
		}
		slices.Sort(slower)
		if in.Kind != c.kind || in.Distance != c.want || !slices.Equal(slower, c.slower) {
			t.Errorf("%s: %s, distance %d, slower at %v; want %s, %d, %v", c.name, in.Kind, in.Distance, slower, c.kind, c.want, c.slower)
		}
	}
}

// TestKnee pins the interference distance on synthetic sweeps shaped
// like real ones: 65 distances 8 bytes apart, 10 rounds, each sample
// 3 % noisy (seeded). A lone point 9 % slow is a tenth of the same-line
// slowdown: no knee. A point whose rounds are half slow is significant
// only before the correction for the sweep's 65 tests: no knee. A host whose prefetcher
// pairs lines costs the writer 30 % from 64 to 120 bytes: the knee is at
// 128. A slow point past a fast one moves the knee past it.
func TestKnee(t *testing.T) {
	const fast, slow = 2e8, 3e7
	rng := rand.New(rand.NewPCG(3, 4))
	sample := func(center float64) []float64 {
		v := make([]float64, 10)
		for i := range v {
			v[i] = center * (1 + 0.03*rng.NormFloat64())
		}
		return v
	}
	sweep := func(rate func(d int64) float64) *SweepResult {
		r := &SweepResult{Far: &SweepPoint{Distance: 4096, Writer: sample(fast)}, Rounds: 10}
		for d := int64(0); d <= 512; d += 8 {
			r.Points = append(r.Points, &SweepPoint{Distance: d, Writer: sample(rate(d))})
		}
		return r
	}
	for _, c := range []struct {
		name string
		rate func(d int64) float64
		want int64
	}{
		{"noise", func(d int64) float64 { return map[bool]float64{true: slow, false: fast}[d < 64] }, 64},
		{"outlier", func(d int64) float64 {
			switch {
			case d < 64:
				return slow
			case d == 144:
				return 0.91 * fast
			}
			return fast
		}, 64},
		{"adjacent line", func(d int64) float64 {
			switch {
			case d < 64:
				return slow
			case d < 128:
				return 0.7 * fast
			}
			return fast
		}, 128},
		{"late", func(d int64) float64 {
			if d < 64 || d == 96 {
				return slow
			}
			return fast
		}, 104},
	} {
		in := sweep(c.rate).Interference()
		if in.Distance != c.want {
			var slower []int64
			for d := range in.Slower {
				slower = append(slower, d)
			}
			slices.Sort(slower)
			t.Errorf("%s: distance %d (slower at %v), want %d", c.name, in.Distance, slower, c.want)
		}
	}
	// The outlier is a real 9 % effect, significant uncorrected: in the
	// sweep above, what keeps it out is its being a tenth of the
	// same-line slowdown.
	r := sweep(func(d int64) float64 { return map[bool]float64{true: 0.91 * fast, false: fast}[d == 144] })
	if c := stats.Compare(r.Far.Writer, r.Points[144/8].Writer); c.RawP > 0.05 {
		t.Errorf("the 9 %% outlier has p=%.3f alone; the test wants one that is significant uncorrected", c.RawP)
	}
	// A point at 200 whose rounds are half slow, half fast: its median
	// is far below the same-line quarter, and significant uncorrected,
	// but not after Holm's correction for the sweep's 65 tests, which is
	// what keeps it out.
	r = sweep(func(d int64) float64 { return map[bool]float64{true: slow, false: fast}[d < 64] })
	mixed := r.Points[200/8]
	for i := range mixed.Writer {
		if i%2 == 0 {
			mixed.Writer[i] = 0.3 * fast * (1 + 0.01*float64(i))
		}
	}
	c := stats.Compare(r.Far.Writer, mixed.Writer)
	in := r.Interference()
	if c.RawP > 0.05 || in.Distance != 64 {
		t.Errorf("half-slow point: p=%.4f uncorrected, distance %d; want p <= 0.05 and 64, the correction keeping it out", c.RawP, in.Distance)
	}
}
