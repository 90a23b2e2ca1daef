package costmodel

import (
	"slices"

	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/sharing"
)

// PathChange is the cost model's prediction of a path's change of rate
// from one layout to another in one case of the host's line size (a
// diff row): positive where the path runs faster after.
type PathChange struct {
	Path         string   `json:"path"`
	Line         int64    `json:"line"`
	Phase        int64    `json:"phase"`
	NewPhase     int64    `json:"new_phase"`
	Change       float64  `json:"change"`
	Uncalibrated []string `json:"uncalibrated,omitempty"`
}

// DiffChanges predicts every row of a comparison at a line size: the
// host's, or one the probe emulates on it (Gains). A path gains what each pair it leaves costs it and pays what each
// pair it joins costs, the factors multiplied: a model of independent
// misses, which holds while they are few against the path's own work.
func (c *Calibration) DiffChanges(r *diff.Result, line int64, unthrottled bool) []PathChange {
	var out []PathChange
	for _, row := range r.Rows {
		if row.Line != line {
			continue
		}
		old, new := r.Old.Case(row.Line, row.Phase), r.New.Case(row.Line, row.NewPhase)
		if old == nil || new == nil {
			continue
		}
		// A pair the change breaks gains what moving to where it
		// lands in the new layout saves (the adjacent line of a pair
		// saves less than far); a pair it makes costs what moving from
		// where it lay in the old one does.
		before, uo := c.factors(r.Old.Object, old, row.Path, unthrottled, func(w, o string) Relation { return c.pairRelation(r.New.Object, new, w, o) })
		after, un := c.factors(r.New.Object, new, row.Path, unthrottled, func(w, o string) Relation { return c.pairRelation(r.Old.Object, old, w, o) })
		ratio := 1.0
		for k, f := range before {
			if _, ok := after[k]; !ok {
				ratio *= f
			}
		}
		for k, f := range after {
			if _, ok := before[k]; !ok {
				ratio /= f
			}
		}
		pc := PathChange{Path: row.Path, Line: row.Line, Phase: row.Phase, NewPhase: row.NewPhase, Change: ratio - 1}
		for _, u := range append(uo, un...) {
			if !slices.Contains(pc.Uncalibrated, u) {
				pc.Uncalibrated = append(pc.Uncalibrated, u)
			}
		}
		out = append(out, pc)
	}
	return out
}

// factors are, for each path a path falsely shares a line with in a
// case, keyed by its role and the other's name, how much faster the path
// would run with the pair where landing puts it (one plus the gain); and
// the reasons of pairs the calibration cannot predict.
func (c *Calibration) factors(o *sharing.Object, cs *sharing.Case, path string, unthrottled bool, landing func(writer, other string) Relation) (map[string]float64, []string) {
	out := map[string]float64{}
	var uncalibrated []string
	for _, g := range c.gains(o, cs, unthrottled, landing) {
		var key string
		var gain float64
		switch path {
		case g.Other:
			key, gain = "beside "+g.Writer, g.Gain.Reader
		case g.Writer:
			key, gain = "writing beside "+g.Other, g.Gain.Writer
		default:
			continue
		}
		if g.Uncalibrated != "" {
			uncalibrated = append(uncalibrated, g.Uncalibrated)
			continue
		}
		out[key] = max(out[key], 1+gain)
	}
	return out, uncalibrated
}

// FalseKinds are the kinds of every false pair of the comparisons' cases
// at a line size, each once: what a calibration must measure to predict
// them.
func FalseKinds(rs []*diff.Result, line int64) []Kinds {
	var out []Kinds
	for _, r := range rs {
		for _, oa := range []*sharing.ObjectAnalysis{r.Old, r.New} {
			for i := range oa.Cases {
				cs := &oa.Cases[i]
				if cs.Line != line {
					continue
				}
				for _, ls := range cs.Lines {
					for _, p := range ls.Pairs {
						if k := KindsOn(oa.Object, cs, ls.Index, pathNamed(oa.Object, p.Writer), pathNamed(oa.Object, p.Other)); !p.True && !slices.Contains(out, k) {
							out = append(out, k)
						}
					}
				}
			}
		}
	}
	return out
}
