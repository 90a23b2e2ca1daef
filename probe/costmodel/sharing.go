package costmodel

import (
	"fmt"
	"slices"

	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
)

// PairGain is what the cost model predicts one falsely shared pair costs
// on this host: each side's change were the writer's words moved off the
// line, at the rates the paths declare.
type PairGain struct {
	Object       string `json:"object"`
	Line         int64  `json:"line"`
	Phase        int64  `json:"phase"`
	LineIndex    int64  `json:"line_index"`
	Writer       string `json:"writer"`
	Other        string `json:"other"`
	Kinds        string `json:"kinds"`
	Gain         Change `json:"gain"`
	Uncalibrated string `json:"uncalibrated,omitempty"`
}

// Gains predicts every false pair of a case: of the host's line size, or
// of a larger one that the probe emulates on the host's lines, where a
// pair on one target line is a pair on one host line. A rate-limited
// writer (a tick at 250/s) costs the reader in proportion to its writes,
// each one a miss, and keeps its own rate (Scaled); unthrottled prices every side as running as
// fast as it can, as the probe's -stress runs them.
func (c *Calibration) Gains(o *sharing.Object, cs *sharing.Case, unthrottled bool) []PairGain {
	return c.gains(o, cs, unthrottled, func(string, string) Relation { return Apart })
}

// gains are Gains with each pair moved to where landing says the
// writer's words then lie from the other's.
func (c *Calibration) gains(o *sharing.Object, cs *sharing.Case, unthrottled bool, landing func(writer, other string) Relation) []PairGain {
	var out []PairGain
	for _, ls := range cs.Lines {
		for _, p := range ls.Pairs {
			if p.True {
				continue
			}
			w, other := pathNamed(o, p.Writer), pathNamed(o, p.Other)
			k := KindsOn(o, cs, ls.Index, w, other)
			g := PairGain{Object: o.Layout.Name, Line: cs.Line, Phase: cs.Phase, LineIndex: ls.Index, Writer: p.Writer, Other: p.Other, Kinds: k.String()}
			ch, err := c.Predict(k, SameLine, landing(p.Writer, p.Other))
			if err != nil {
				g.Uncalibrated = err.Error()
			} else {
				g.Gain = ch
				if !unthrottled {
					g.Gain = c.Scaled(k, ch, w, other)
				}
			}
			out = append(out, g)
		}
	}
	return out
}

// Scaled is a hot pair's change ch scaled to the sides' rates: a writer
// that writes w times a second (over all its CPUs) makes at most w of
// the reader's operations miss, each costing what a miss costs in the
// calibration, and a reader that reads r times a second takes the line
// from the writer at most r times. A side limited to a rate keeps its
// rate whatever its operations cost: its change is none.
func (c *Calibration) Scaled(k Kinds, ch Change, writer, reader *access.Path) Change {
	cv := c.Curve(k)
	if cv == nil {
		return ch
	}
	apart := cv.Rates[Apart]
	if writer.Rate != access.Hot {
		ch.Reader *= min(1, writer.Weight(1)/apart.Reader)
		ch.Writer = 0
	}
	if reader.Rate != access.Hot {
		ch.Writer *= min(1, reader.Weight(1)/apart.Writer)
		ch.Reader = 0
	}
	return ch
}

// KindsOn is what the two paths do on one line of a case: the writer's
// strongest write there (a CAS or an add over a store; a seqlock's
// sequence increments are adds), and the other's strongest access (a
// write where it writes too, else a load).
func KindsOn(o *sharing.Object, cs *sharing.Case, index int64, writer, other *access.Path) Kinds {
	return Kinds{Writer: strongest(o, cs, index, writer, true), Reader: strongest(o, cs, index, other, false)}
}

// strength orders the kinds: a read-modify-write costs the line's owner
// more than a store, a store more than a load.
var strength = map[access.Op]int{access.Read: 0, access.Write: 1, access.Add: 2, access.CAS: 3}

func strongest(o *sharing.Object, cs *sharing.Case, index int64, p *access.Path, writing bool) access.Op {
	best := access.Read
	ts, err := access.Resolve(p, o.Layout)
	if err != nil {
		return best
	}
	lo, hi := index*cs.Line-cs.Phase, (index+1)*cs.Line-cs.Phase
	for _, t := range ts {
		if t.Offset >= hi || t.End <= lo {
			continue
		}
		op := t.Op
		switch op {
		case access.SeqRead:
			op = access.Read
		case access.SeqWrite:
			op = access.Add
		}
		if writing && !op.Writes() {
			continue
		}
		if strength[op] > strength[best] {
			best = op
		}
	}
	return best
}

// pairRelation is where a writer's written words lie from another
// path's words in a case, the nearest of any two (RelationOnLines);
// apart when either path is not in the object.
func (c *Calibration) pairRelation(o *sharing.Object, cs *sharing.Case, writer, other string) Relation {
	wi := slices.IndexFunc(o.Paths, func(p *access.Path) bool { return p.Name == writer })
	oi := slices.IndexFunc(o.Paths, func(p *access.Path) bool { return p.Name == other })
	if wi < 0 || oi < 0 {
		return Apart
	}
	ws, err1 := access.Resolve(o.Paths[wi], o.Layout)
	os, err2 := access.Resolve(o.Paths[oi], o.Layout)
	if err1 != nil || err2 != nil {
		return Apart
	}
	best := Apart
	for _, w := range ws {
		if !w.Op.Writes() {
			continue
		}
		for _, t := range os {
			r := RelationOnLines(cs.Phase+w.Offset, cs.Phase+w.End, cs.Phase+t.Offset, cs.Phase+t.End, cs.Line, c.Line)
			if slices.Index(Relations, r) < slices.Index(Relations, best) {
				best = r
			}
		}
	}
	return best
}

func pathNamed(o *sharing.Object, name string) *access.Path {
	i := slices.IndexFunc(o.Paths, func(p *access.Path) bool { return p.Name == name })
	if i < 0 {
		panic(fmt.Sprintf("costmodel: %s has no path %s", o.Layout.Name, name))
	}
	return o.Paths[i]
}
