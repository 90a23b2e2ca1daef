package probe

import (
	"github.com/mglayout/mglayout/probe/stats"
)

// Find returns the case of a path in a variant, beside the writers or
// alone, or nil.
func (r *Result) Find(variant, path string, alone bool) *Case {
	for _, c := range r.Cases {
		if c.Variant == variant && c.Path.Name == path && c.Alone == alone {
			return c
		}
	}
	return nil
}

// Disagreement is how a measurement contradicts its prediction.
type Disagreement int

const (
	// Agrees: no contradiction, or too few rounds to tell.
	Agrees Disagreement = iota
	// SlowerUnshared: significantly slower beside the writers, though no
	// line is shared.
	SlowerUnshared
	// SharedNoSlowdown: a hot writer shares a line, yet no slowdown.
	SharedNoSlowdown
)

// Disagreement judges a measurement against the prediction: a
// significant slowdown beside writers where no line is shared, or none
// where a hot writer shares a line.
func (p *Prediction) Disagreement(c *Comparison) Disagreement {
	if c == nil || c.N1 < stats.MinForCI {
		return Agrees
	}
	slower := c.Significant() && c.Delta < slowdown
	switch {
	case slower && len(p.Shared) == 0:
		return SlowerUnshared
	case !slower && p.HotSharing:
		return SharedNoSlowdown
	}
	return Agrees
}

// CoarseSaving is a fine clock read paired with the coarse read of the
// same call by the same mechanism, and their comparison, corrected with
// the other pairs of the run as one family.
type CoarseSaving struct {
	Fine, Coarse *ClockRow
	stats.Comparison
}

// CoarseSavings pairs each fine row with the coarse row of the same call
// and mechanism; the comparisons are one family (Holm).
func (r *ClockResult) CoarseSavings() []CoarseSaving {
	var out []CoarseSaving
	var family []stats.Comparison
	for _, fine := range r.Rows {
		if fine.Coarse || fine.Missing != "" || len(fine.Samples) == 0 {
			continue
		}
		for _, coarse := range r.Rows {
			if !coarse.Coarse || coarse.Call != fine.Call || coarse.Via != fine.Via || coarse.Missing != "" || len(coarse.Samples) == 0 {
				continue
			}
			out = append(out, CoarseSaving{Fine: fine, Coarse: coarse})
			family = append(family, stats.Compare(fine.Samples, coarse.Samples))
		}
	}
	stats.Holm(family)
	for i := range out {
		out[i].Comparison = family[i]
	}
	return out
}
