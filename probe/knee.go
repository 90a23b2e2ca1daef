package probe

import (
	"math"

	"github.com/mglayout/mglayout/probe/stats"
)

// Interference is the verdict of a sweep.
type Interference struct {
	// Distance is the first distance from which on the writer is never
	// slower than at the far control: the destructive interference
	// distance. -1 when even the largest distance interferes.
	Distance int64
	// Comparisons are the writer's at every distance against the
	// control, in the order of the points, corrected as one family.
	Comparisons []stats.Comparison
	// Slower are the distances at which the writer is slower, with
	// their comparison.
	Slower map[int64]stats.Comparison
}

// Decidable reports whether the sweep's rounds could show a distance
// significant at all after the correction for its number of tests: with
// too few (6 rounds over 65 distances), the exact test's smallest p is
// above the corrected level, and no knee can be found on any machine.
func (in Interference) Decidable() bool {
	return len(in.Comparisons) > 0 && !math.IsInf(in.Comparisons[0].MDE, 1)
}

// slowdown is the smallest slowdown that counts, besides significance:
// two runs of the same loop on a shared VM differ by a few per cent.
const slowdown = -0.05

// kneeFraction is the part of the same-line slowdown (the writer's at
// distance 0) that a distance must show to interfere: a line the reader
// shares costs the writer most of its rate, and a prefetcher's pairing of
// adjacent lines a good part of it, where a noisy round costs a few per
// cent.
const kneeFraction = 0.25

// Interference compares the writer at every distance with the control.
// The comparisons are one family, corrected for their number (Holm): a
// sweep of 65 distances would otherwise find three by chance. A distance
// interferes when its slowdown is significant and at least kneeFraction
// of the same-line slowdown (and slowdown).
func (r *SweepResult) Interference() Interference {
	in := Interference{Slower: map[int64]stats.Comparison{}}
	for _, p := range r.Points {
		in.Comparisons = append(in.Comparisons, stats.Compare(r.Far.Writer, p.Writer))
	}
	stats.Holm(in.Comparisons)
	threshold := slowdown
	if len(r.Points) > 0 && r.Points[0].Distance == 0 {
		threshold = min(threshold, kneeFraction*in.Comparisons[0].Delta)
	}
	last := -1
	for i, c := range in.Comparisons {
		if c.Significant() && c.Delta < threshold {
			in.Slower[r.Points[i].Distance] = c
			last = i
		}
	}
	switch {
	case last < 0:
		in.Distance = 0
	case last == len(r.Points)-1:
		in.Distance = -1
	default:
		in.Distance = r.Points[last+1].Distance
	}
	return in
}
