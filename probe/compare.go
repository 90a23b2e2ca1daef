package probe

import (
	"slices"

	"github.com/mglayout/mglayout/probe/stats"
)

// Comparison is one test an experiment makes: a path beside the writers
// against the same path alone (Old is New's variant plus " alone"), or
// a path in a variant against the first variant.
type Comparison struct {
	Path     string
	Old, New string
	// Alone is set for the test against the path alone.
	Alone bool
	stats.Comparison
}

// Comparisons makes every test of an experiment, as one family
// corrected for its number (Holm): for each path, each variant beside
// its writers against alone, then each later variant against the first.
func (r *Result) Comparisons() []Comparison {
	var out []Comparison
	var paths, variants []string
	for _, c := range r.Cases {
		if !slices.Contains(paths, c.Path.Name) {
			paths = append(paths, c.Path.Name)
		}
		if !slices.Contains(variants, c.Variant) {
			variants = append(variants, c.Variant)
		}
	}
	for _, path := range paths {
		for _, v := range variants {
			if with, alone := r.Find(v, path, false), r.Find(v, path, true); with != nil && alone != nil {
				out = append(out, Comparison{Path: path, Old: v + " alone", New: v, Alone: true, Comparison: stats.Compare(alone.Samples, with.Samples)})
			}
		}
		for _, v := range variants[1:] {
			if a, b := r.Find(variants[0], path, false), r.Find(v, path, false); a != nil && b != nil {
				out = append(out, Comparison{Path: path, Old: variants[0], New: v, Comparison: stats.Compare(a.Samples, b.Samples)})
			}
		}
	}
	family := make([]stats.Comparison, len(out))
	for i := range out {
		family[i] = out[i].Comparison
	}
	stats.Holm(family)
	for i := range out {
		out[i].Comparison = family[i]
	}
	return out
}

// ComparisonOf returns the test of a path between two variants (old and
// new, as Comparisons names them), or nil.
func ComparisonOf(cs []Comparison, path, old, new string) *Comparison {
	for i := range cs {
		if c := &cs[i]; c.Path == path && c.Old == old && c.New == new {
			return c
		}
	}
	return nil
}
