package stats

import (
	"math"
	"strings"
	"testing"
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

// TestSummarizeSmall: below MinForCI samples, the interval is infinite and
// RangePct says so.
func TestSummarizeSmall(t *testing.T) {
	for n := 1; n < MinForCI; n++ {
		var v []float64
		for i := range n {
			v = append(v, float64(100+i))
		}
		s := Summarize(v)
		// benchmath may bound one side (n=5 gives [-Inf, max]).
		if !math.IsInf(s.Lo, -1) && !math.IsInf(s.Hi, 1) {
			t.Errorf("n=%d: interval [%v, %v], want infinite", n, s.Lo, s.Hi)
		}
		if s.RangePct() != "∞" {
			t.Errorf("n=%d: RangePct %q, want ∞", n, s.RangePct())
		}
		if len(s.Warnings) == 0 {
			t.Errorf("n=%d: no warning about the sample size", n)
		}
	}
	var v []float64
	for i := range MinForCI {
		v = append(v, float64(100+i))
	}
	if s := Summarize(v); math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) {
		t.Errorf("n=%d: interval [%v, %v], want finite", MinForCI, s.Lo, s.Hi)
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
	if got := Compare(slow, slow[:7]).PString(); got != "p="+strings.TrimPrefix(got, "p=")[:5]+" n=10+7" {
		t.Errorf("PString of unequal samples: %q", got)
	}
	if Compare(slow[:3], fast[:3]).Significant() {
		t.Errorf("3 against 3 cannot be significant at 0.05 with Mann-Whitney")
	}
}
