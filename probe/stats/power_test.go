package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
)

// TestMDEPower checks the smallest detectable effect against benchmath's
// own test: samples shifted by the MDE that the formula gives for their
// true spread must be found significant about Power of the time. The
// draws are seeded, so the rate is the same on every run.
func TestMDEPower(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{8, 10, 20} {
		const mean, sd, trials = 100.0, 5.0, 400
		df := float64(2*n - 2)
		z := tQuantile(1-0.05/2, df) + tQuantile(Power, df)
		shift := z * sd * math.Sqrt(2/float64(n)) / math.Sqrt(3/math.Pi)
		found := 0
		var estimates float64
		for range trials {
			old, new := make([]float64, n), make([]float64, n)
			for i := range n {
				old[i] = mean + sd*rng.NormFloat64()
				new[i] = mean + shift + sd*rng.NormFloat64()
			}
			c := Compare(old, new)
			if c.Significant() {
				found++
			}
			estimates += c.MDE
		}
		rate := float64(found) / trials
		t.Logf("n=%d: MDE %.2f%% found in %.0f%% of %d trials; mean estimate %.2f%%", n, shift, 100*rate, trials, 100*estimates/trials)
		if rate < 0.7 || rate > 0.9 {
			t.Errorf("n=%d: a shift of the MDE (%.2f%%) found in %.0f%% of %d trials, want about %.0f%%", n, shift, 100*rate, trials, 100*Power)
		}
		// Estimated from the samples, the MDE is near the true one on
		// average (the median absolute deviation is a noisy estimate
		// of the spread in small samples).
		if mean := estimates / trials; math.Abs(mean*100/shift-1) > 0.25 {
			t.Errorf("n=%d: mean estimated MDE %.2f%%, want about %.2f%%", n, 100*mean, shift)
		}
	}
}

// TestTQuantile checks the t quantiles against the tables (R's qt):
// qt(0.975, 18) = 2.100922, qt(0.8, 18) = 0.8620381, qt(0.975, 8) =
// 2.306004, and in the tail that Holm's levels reach, qt(0.999, 5) =
// 5.893430 and qt(0.9995, 5) = 6.868827.
func TestTQuantile(t *testing.T) {
	for _, c := range []struct{ p, df, want float64 }{{0.975, 18, 2.100922}, {0.8, 18, 0.8620381}, {0.975, 8, 2.306004}, {0.999, 5, 5.893430}, {0.9995, 5, 6.868827}} {
		if got := tQuantile(c.p, c.df); math.Abs(got/c.want-1) > 1e-3 {
			t.Errorf("tQuantile(%v, %v) = %v, want %v", c.p, c.df, got, c.want)
		}
	}
}

// TestMDETooSmall: the exact test of 3 against 3 samples never reaches
// p=0.05 (its smallest p-value is 2/20), so it could see no change.
func TestMDETooSmall(t *testing.T) {
	c := Compare([]float64{1, 2, 3}, []float64{4, 5, 6})
	if !math.IsInf(c.MDE, 1) || c.MDEString() != "too few samples to see any change" {
		t.Errorf("3 vs 3: MDE %v (%q), want +Inf", c.MDE, c.MDEString())
	}
	if got := minP(5, 5); math.Abs(got-2.0/252) > 1e-12 {
		t.Errorf("minP(5, 5) = %v, want 2/252", got)
	}
}

// TestMDENoSpread: samples whose values are mostly equal have no median
// absolute deviation, which tells nothing of their spread: no MDE, not
// one of zero.
func TestMDENoSpread(t *testing.T) {
	c := Compare([]float64{5, 5, 5, 5, 5, 5, 7, 4}, []float64{5, 5, 5, 5, 5, 6, 5, 3})
	if !math.IsInf(c.MDE, 1) {
		t.Errorf("mostly equal samples: MDE %v, want +Inf", c.MDE)
	}
}

// TestHolm checks the corrected p-values against R's p.adjust(p,
// "holm") for p = (0.01, 0.04, 0.03, 0.005): (0.03, 0.06, 0.06, 0.02).
func TestHolm(t *testing.T) {
	raw := []float64{0.01, 0.04, 0.03, 0.005}
	want := []float64{0.03, 0.06, 0.06, 0.02}
	family := make([]Comparison, len(raw))
	for i, p := range raw {
		family[i] = Comparison{P: p, RawP: p, Tests: 1, Alpha: 0.05}
	}
	Holm(family)
	for i, c := range family {
		if math.Abs(c.P-want[i]) > 1e-12 || c.RawP != raw[i] || c.Tests != 4 {
			t.Errorf("p=%v: corrected %v of %d tests, want %v of 4", raw[i], c.P, c.Tests, want[i])
		}
	}
	if family[0].PString() != "p=0.030 (Holm, 4) n=0" {
		t.Errorf("PString = %q", family[0].PString())
	}
}
