package stats

import (
	"math"
	"slices"

	mstats "github.com/aclements/go-moremath/stats"
)

// Power is the probability with which the smallest detectable effect
// (MDE) would be seen: a change that large is found significant four
// times in five.
const Power = 0.8

// relSpread is the spread of the difference of two samples' centres,
// relative to the old one's median m1: the t test's standard error with
// the spread of the two samples pooled from their median absolute
// deviations (robust to the outliers a shared machine produces), widened
// by the Mann-Whitney test's asymptotic efficiency against the t test on
// normal samples (3/π). +Inf where it cannot be told: samples too few,
// or so many equal values that neither median absolute deviation says
// anything of the spread (a change of zero is no smallest one).
func relSpread(old, new []float64, m1, m2 float64) float64 {
	n1, n2 := len(old), len(new)
	if n1 < 2 || n2 < 2 || m1 == 0 {
		return math.Inf(1)
	}
	s1, s2 := robustSD(old, m1), robustSD(new, m2)
	if s1 == 0 && s2 == 0 {
		return math.Inf(1)
	}
	pooled := math.Sqrt((float64(n1-1)*s1*s1 + float64(n2-1)*s2*s2) / float64(n1+n2-2))
	return pooled * math.Sqrt(1/float64(n1)+1/float64(n2)) / math.Sqrt(3/math.Pi) / math.Abs(m1)
}

// mde is the smallest relative change that a Mann-Whitney test of
// samples of these sizes and relative spread (relSpread) would find
// significant at level alpha with probability Power. +Inf when no change
// could be seen: the exact test of samples this small cannot reach alpha
// at all.
func mde(n1, n2 int, spread, alpha float64) float64 {
	if n1 < 2 || n2 < 2 || minP(n1, n2) > alpha {
		return math.Inf(1)
	}
	df := float64(n1 + n2 - 2)
	return (tQuantile(1-alpha/2, df) + tQuantile(Power, df)) * spread
}

// minP is the smallest two-sided p-value the exact Mann-Whitney test of
// samples of sizes n1 and n2 can give: every value of one below every
// value of the other, 2 / C(n1+n2, n1).
func minP(n1, n2 int) float64 {
	// log C(n1+n2, n1), by lgamma, for sizes whose binomial overflows.
	lc := lgamma(n1+n2+1) - lgamma(n1+1) - lgamma(n2+1)
	return math.Min(1, 2*math.Exp(-lc))
}

func lgamma(n int) float64 {
	v, _ := math.Lgamma(float64(n))
	return v
}

// robustSD estimates a sample's standard deviation from its median
// absolute deviation around its median m, scaled to agree with the standard deviation on
// normal samples.
func robustSD(xs []float64, m float64) float64 {
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - m)
	}
	return 1.4826 * median(dev)
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// tQuantile is Student's t distribution's quantile function with df
// degrees of freedom: go-moremath's, which benchmath computes its own
// statistics with.
func tQuantile(p, df float64) float64 {
	return mstats.InvCDF(mstats.TDist{V: df})(p)
}
