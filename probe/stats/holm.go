package stats

import (
	"cmp"
	"slices"
)

// Holm corrects a family of comparisons made together (every distance
// of a sweep against its control, every comparison of one probe) for
// their number, by Holm's step-down method: the k-th smallest of m
// p-values is multiplied by m-k+1, and no corrected value is smaller than
// the one before it. Each comparison keeps its own p-value as RawP, and
// its MDE becomes the one at the strictest level of the family, alpha/m,
// as a bound that holds whatever its rank.
func Holm(family []Comparison) {
	m := len(family)
	if m < 2 {
		return
	}
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(family[a].RawP, family[b].RawP) })
	running := 0.0
	for k, i := range order {
		c := &family[i]
		running = max(running, min(1, float64(m-k)*c.RawP))
		c.P = running
		c.Tests = m
		c.MDE = mde(c.N1, c.N2, c.spread, c.Alpha/float64(m))
	}
}
