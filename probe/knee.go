package probe

import "github.com/mglayout/mglayout/probe/stats"

// Interference is the verdict of a sweep.
type Interference struct {
	// Distance is the smallest distance from which on the writer is never
	// significantly slower than at the far control: the destructive
	// interference distance. -1 when even the largest distance interferes.
	Distance int64
	// Slower are the distances at which the writer is significantly
	// slower than at the control, with the comparison.
	Slower map[int64]stats.Comparison
}

// slowdown is the smallest slowdown that counts, besides significance:
// two runs of the same loop on a shared VM differ by a few per cent.
const slowdown = -0.05

// Interference compares the writer at every distance with the control.
func (r *SweepResult) Interference() Interference {
	in := Interference{Distance: 0, Slower: map[int64]stats.Comparison{}}
	for _, p := range r.Points {
		c := stats.Compare(r.Far.Writer, p.Writer)
		if c.Significant() && c.Delta < slowdown {
			in.Slower[p.Distance] = c
			in.Distance = -1
		} else if in.Distance == -1 {
			in.Distance = p.Distance
		}
	}
	return in
}
