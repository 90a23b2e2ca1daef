package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCriticalU checks the exact critical values against the published
// table of the two-sided Mann-Whitney test at 0.05: 23 for 10 and 10, 2
// for 5 and 5, 8 for 6 and 8; and none for 3 and 3.
func TestCriticalU(t *testing.T) {
	for _, tc := range []struct{ n, m, want int }{{10, 10, 23}, {5, 5, 2}, {6, 8, 8}, {3, 3, -1}, {8, 6, 8}} {
		if got := criticalU(tc.n, tc.m, 0.025); got != tc.want {
			t.Errorf("criticalU(%d, %d) = %d, want %d", tc.n, tc.m, got, tc.want)
		}
	}
}

// TestNormalU checks the approximation used past the exact table against
// the exact count where the two meet.
func TestNormalU(t *testing.T) {
	for _, nm := range [][2]int{{50, 50}, {40, 60}, {20, 100}} {
		exact, approx := criticalU(nm[0], nm[1], 0.025), normalU(nm[0], nm[1], 0.025)
		if d := exact - approx; d < -2 || d > 2 {
			t.Errorf("%d and %d: exact %d, normal %d", nm[0], nm[1], exact, approx)
		}
	}
}

// TestChangeIntervalCoverage checks by simulation that the interval holds
// the true change about 95 % of the time: samples of 10 and 10 from
// log-normal rates, the new ones 30 % faster.
func TestChangeIntervalCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const trials, change = 2000, 0.3
	covered := 0
	for range trials {
		old, new := make([]float64, 10), make([]float64, 10)
		for i := range old {
			old[i] = 1e8 * math.Exp(0.1*r.NormFloat64())
			new[i] = 1e8 * (1 + change) * math.Exp(0.1*r.NormFloat64())
		}
		lo, hi, ok := ChangeInterval(old, new)
		if !ok {
			t.Fatal("no interval for 10 and 10")
		}
		if lo <= change && change <= hi {
			covered++
		}
	}
	if got := float64(covered) / trials; got < 0.93 || got > 0.98 {
		t.Errorf("the interval covers the change in %.3f of trials, want about 0.95", got)
	}
	if _, _, ok := ChangeInterval([]float64{1, 2, 3}, []float64{1, 2, 3}); ok {
		t.Error("an interval from 3 and 3 samples, which the test cannot make significant")
	}
}

// TestChangeIntervalLarge checks that many rounds (a -count of 600) give
// an interval, quickly, from the normal approximation, and that it holds
// the change.
func TestChangeIntervalLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	old, new := make([]float64, 600), make([]float64, 600)
	for i := range old {
		old[i] = 1e8 * math.Exp(0.1*r.NormFloat64())
		new[i] = 1.2e8 * math.Exp(0.1*r.NormFloat64())
	}
	lo, hi, ok := ChangeInterval(old, new)
	if !ok || !(lo < 0.2 && 0.2 < hi) || hi-lo > 0.05 {
		t.Errorf("600 and 600 rounds 20 %% apart: [%v, %v] ok %v", lo, hi, ok)
	}
}
