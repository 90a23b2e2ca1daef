package stats

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"
)

func TestSummarizeMedian(t *testing.T) {
	s := Summarize([]float64{5, 1, 9, 3, 7, 2, 8, 4, 6, 10, 11})
	if s.Median != 6 || s.N != 11 {
		t.Errorf("median %v of %d, want 6 of 11", s.Median, s.N)
	}
	if !(s.Lo <= s.Median && s.Median <= s.Hi) || math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) {
		t.Errorf("interval [%v, %v] does not hold the median or is infinite", s.Lo, s.Hi)
	}
	if got := s.RangePct(); got == "∞" || !strings.HasSuffix(got, "%") {
		t.Errorf("RangePct = %q, want a percentage", got)
	}
	if even := Summarize([]float64{1, 2, 3, 4, 5, 6, 7, 8}); even.Median != 4.5 {
		t.Errorf("median of 1..8 = %v, want 4.5", even.Median)
	}
}

// TestSummarizeSmall: below MinForCI samples, the interval benchstat
// computes is unbounded on at least one side, and RangePct says so. The
// bounds are benchmath's own, computed here apart.
func TestSummarizeSmall(t *testing.T) {
	for n := 1; n <= MinForCI; n++ {
		var v []float64
		for i := range n {
			v = append(v, float64(100+i))
		}
		s := Summarize(v)
		want := benchmath.AssumeNothing.Summary(benchmath.NewSample(v, &benchmath.DefaultThresholds), Confidence)
		if s.Lo != want.Lo || s.Hi != want.Hi || s.Median != want.Center {
			t.Errorf("n=%d: [%v, %v] around %v, want benchmath's [%v, %v] around %v", n, s.Lo, s.Hi, s.Median, want.Lo, want.Hi, want.Center)
		}
		infinite := math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0)
		switch {
		case n < MinForCI && (!infinite || s.RangePct() != "∞" || len(s.Warnings) == 0):
			t.Errorf("n=%d: interval [%v, %v], RangePct %q, warnings %v: want an unbounded interval, ∞ and a warning", n, s.Lo, s.Hi, s.RangePct(), s.Warnings)
		case n == MinForCI && (infinite || s.RangePct() == "∞"):
			t.Errorf("n=%d: interval [%v, %v], RangePct %q: want a finite one", n, s.Lo, s.Hi, s.RangePct())
		}
	}
	if s := Summarize(nil); !math.IsNaN(s.Median) || s.RangePct() != "∞" {
		t.Errorf("empty sample: median %v, RangePct %q", s.Median, s.RangePct())
	}
}

func TestCompare(t *testing.T) {
	slow := []float64{100, 102, 99, 101, 103, 98, 100, 101, 102, 99}
	fast := []float64{200, 205, 198, 202, 201, 199, 203, 200, 204, 197}
	up := Compare(slow, fast)
	if !up.Significant() || up.P >= 0.01 || up.Delta < 0.9 || up.Delta > 1.1 {
		t.Errorf("slow→fast: p=%v significant=%v delta=%v, want p<0.01 and about +100%%", up.P, up.Significant(), up.Delta)
	}
	if d := up.DeltaString(); !strings.HasPrefix(d, "+") || !strings.HasSuffix(d, "%") {
		t.Errorf("slow→fast: DeltaString %q, want +NN%%", d)
	}
	down := Compare(fast, slow)
	if !down.Significant() || down.Delta > -0.4 || !strings.HasPrefix(down.DeltaString(), "-") {
		t.Errorf("fast→slow: significant=%v delta=%v %q, want a significant -50%%", down.Significant(), down.Delta, down.DeltaString())
	}
	if up.N1 != 10 || up.N2 != 10 || up.PString() != "p=0.000 n=10" {
		t.Errorf("PString %q (n %d+%d)", up.PString(), up.N1, up.N2)
	}
	same := Compare(slow, slow)
	if same.Significant() || same.DeltaString() != "~" || same.Delta != 0 {
		t.Errorf("identical samples: p=%v delta=%v %q, want ~", same.P, same.Delta, same.DeltaString())
	}
	// The p-value is benchmath's Mann-Whitney U test, computed here apart.
	ref := benchmath.AssumeNothing.Compare(benchmath.NewSample(slow, &benchmath.DefaultThresholds), benchmath.NewSample(slow[:7], &benchmath.DefaultThresholds))
	if got, want := Compare(slow, slow[:7]).PString(), fmt.Sprintf("p=%.3f n=10+7", ref.P); got != want {
		t.Errorf("PString of unequal samples: %q, want %q", got, want)
	}
	if Compare(slow[:3], fast[:3]).Significant() {
		t.Errorf("3 against 3 cannot be significant at 0.05 with Mann-Whitney")
	}
}
