// Package stats summarises and compares the samples of the probe with
// golang.org/x/perf/benchmath, as benchstat does: the median with a 95 %
// confidence interval, assuming nothing about the distribution, and the
// Mann-Whitney U test for a difference, reported as "~" when it is not
// significant. Beyond benchstat, a family of comparisons made together is
// corrected for its number (Holm), and every comparison carries the
// smallest effect it could have detected.
package stats

import (
	"fmt"
	"math"
	"strings"

	"golang.org/x/perf/benchmath"
)

// Confidence is the level of the intervals.
const Confidence = 0.95

// MinForCI is the smallest sample for which AssumeNothing gives a 95 %
// confidence interval of the median; below it the interval is infinite.
const MinForCI = 6

// thresholds are benchstat's: a p-value below 0.05 is significant.
var thresholds = benchmath.DefaultThresholds

// Summary is a sample's median and its confidence interval.
type Summary struct {
	Median, Lo, Hi float64
	N              int
	// Warnings say why the interval may not be trusted (too few
	// samples).
	Warnings []string
}

// Summarize summarises a sample.
func Summarize(values []float64) Summary {
	if len(values) == 0 {
		return Summary{Median: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1)}
	}
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(values, &thresholds), Confidence)
	out := Summary{Median: s.Center, Lo: s.Lo, Hi: s.Hi, N: len(values)}
	for _, w := range s.Warnings {
		out.Warnings = append(out.Warnings, w.Error())
	}
	return out
}

// RangePct is the half-width of the interval relative to the median, as
// benchstat prints it ("± 3%"); "∞" when the sample is too small.
func (s Summary) RangePct() string {
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) || s.Median == 0 {
		return "∞"
	}
	return fmt.Sprintf("%.0f%%", 100*math.Max(s.Hi/s.Median-1, 1-s.Lo/s.Median))
}

// Comparison is the test of two samples.
type Comparison struct {
	// P is the Mann-Whitney U p-value, corrected for the family of
	// comparisons it was made with (Holm); RawP is the test's own.
	P, RawP float64
	// Tests is the size of that family: 1 for a comparison made alone.
	Tests  int
	Alpha  float64 // significance threshold
	N1, N2 int
	Delta  float64 // new median / old median - 1
	// Lo and Hi are the 95 % interval of Delta (ChangeInterval); NaN
	// when the samples are too few for one.
	Lo, Hi   float64
	Warnings []string
	// MDE is the smallest detectable effect: the relative change that
	// these samples would have shown significant with probability
	// Power (+Inf when none could be).
	MDE float64
	// spread is relSpread, for Holm's MDE at its level.
	spread float64
}

// Significant reports whether the samples differ at the threshold.
func (c Comparison) Significant() bool { return c.P <= c.Alpha }

// DeltaString is the change as benchstat prints it: "+12.34%", or "~"
// when it is not significant.
func (c Comparison) DeltaString() string {
	if !c.Significant() {
		return "~"
	}
	return fmt.Sprintf("%+.2f%%", 100*c.Delta)
}

// PString is the p-value and the sample sizes, "p=0.000 n=10"; a
// corrected p-value says of how many tests, "p=0.120 (Holm, 18) n=10".
func (c Comparison) PString() string {
	p := fmt.Sprintf("p=%.3f", c.P)
	if c.Tests > 1 {
		p += fmt.Sprintf(" (Holm, %d)", c.Tests)
	}
	if c.N1 == c.N2 {
		return fmt.Sprintf("%s n=%d", p, c.N1)
	}
	return fmt.Sprintf("%s n=%d+%d", p, c.N1, c.N2)
}

// MDEString says what a comparison that found no change could have
// seen: "no change larger than ±6%", or that it could see none.
func (c Comparison) MDEString() string { return MDEText(c.MDE) }

// MDEText words a smallest detectable effect, +Inf for none.
func MDEText(mde float64) string {
	if math.IsInf(mde, 1) || math.IsNaN(mde) {
		return "too few samples to see any change"
	}
	return "no change larger than " + MDEPercent(mde)
}

// MDEPercent writes a smallest detectable effect for a table: "±6%", or
// "±∞" when no change could be seen.
func MDEPercent(mde float64) string {
	if math.IsInf(mde, 1) || math.IsNaN(mde) {
		return "±∞"
	}
	return "±" + pct(mde)
}

// pct writes a fraction as a percentage with two significant digits at
// most: 6%, 0.8%, 12%.
func pct(f float64) string {
	switch v := 100 * f; {
	case v >= 10:
		return fmt.Sprintf("%.0f%%", v)
	case v >= 1:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") + "%"
	default:
		return fmt.Sprintf("%.2g%%", v)
	}
}

// Compare tests whether two samples come from the same distribution.
func Compare(old, new []float64) Comparison {
	s1, s2 := benchmath.NewSample(old, &thresholds), benchmath.NewSample(new, &thresholds)
	c := benchmath.AssumeNothing.Compare(s1, s2)
	out := Comparison{P: c.P, RawP: c.P, Tests: 1, Alpha: c.Alpha, N1: c.N1, N2: c.N2}
	for _, w := range c.Warnings {
		out.Warnings = append(out.Warnings, w.Error())
	}
	m1, m2 := Summarize(old).Median, Summarize(new).Median
	if m1 != 0 {
		out.Delta = m2/m1 - 1
	}
	out.Lo, out.Hi = math.NaN(), math.NaN()
	if lo, hi, ok := ChangeInterval(old, new); ok {
		out.Lo, out.Hi = lo, hi
	}
	out.spread = relSpread(old, new, m1, m2)
	out.MDE = mde(out.N1, out.N2, out.spread, c.Alpha)
	return out
}
