package stats

import (
	"math"
	"slices"
)

// ChangeInterval is the 95 % interval of the change new/old - 1 between
// two samples of rates: the Hodges-Lehmann interval of the shift between
// their logarithms, the one the Mann-Whitney test inverts, read off the
// ordered differences of every pair at the ranks the test's critical
// value gives (exact U distribution). ok is false when the samples are
// too few for any interval at 95 %, or hold a rate that is not positive.
func ChangeInterval(old, new []float64) (lo, hi float64, ok bool) {
	n, m := len(old), len(new)
	if n == 0 || m == 0 {
		return 0, 0, false
	}
	var d []float64
	for _, x := range old {
		for _, y := range new {
			if !(x > 0) || !(y > 0) {
				return 0, 0, false
			}
			d = append(d, math.Log(y)-math.Log(x))
		}
	}
	slices.Sort(d)
	k := criticalU(n, m, (1-Confidence)/2)
	if k < 0 || k > len(d)/2 {
		return 0, 0, false
	}
	return math.Exp(d[k]) - 1, math.Exp(d[len(d)-1-k]) - 1, true
}

// exactU is the largest n·m for which criticalU counts the exact
// distribution: beyond it the counts outgrow float64's precision long
// before its range, and the table the time a report may spend.
const exactU = 2500

// criticalU is the largest u with P(U ≤ u) ≤ tail for the Mann-Whitney
// U of samples of n and m under the null hypothesis, -1 when even
// P(U = 0) exceeds it: for small samples the number of subsets of n ranks
// of n+m by their sum, counted as the coefficients of the Gaussian
// binomial; for larger ones the normal approximation, with its
// continuity correction.
func criticalU(n, m int, tail float64) int {
	maxU := n * m
	if maxU > exactU {
		return normalU(n, m, tail)
	}
	// ways[k][u]: subsets of k of the ranks seen so far whose U is u.
	ways := make([][]float64, n+1)
	for k := range ways {
		ways[k] = make([]float64, maxU+1)
	}
	ways[0][0] = 1
	for r := range n + m {
		for k := min(r+1, n); k >= 1; k-- {
			// Taking rank r as the k-th smallest adds r-(k-1) to U.
			shift := r - (k - 1)
			if shift > m {
				continue
			}
			for u := maxU; u >= shift; u-- {
				ways[k][u] += ways[k-1][u-shift]
			}
		}
	}
	total := 0.0
	for _, w := range ways[n] {
		total += w
	}
	cum, crit := 0.0, -1
	for u, w := range ways[n] {
		cum += w
		if cum/total > tail {
			break
		}
		crit = u
	}
	return crit
}

// normalU is criticalU by the normal approximation of U.
func normalU(n, m int, tail float64) int {
	mean := float64(n*m) / 2
	sd := math.Sqrt(float64(n*m) * float64(n+m+1) / 12)
	z := -math.Sqrt2 * math.Erfinv(2*tail-1) // the upper tail's quantile
	return max(int(math.Floor(mean-z*sd-0.5)), -1)
}
