package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Options control what a renderer shows.
type Options struct {
	// Lines are the line sizes to show, ascending; each gets a column and
	// boundary markers.
	Lines []int64
	// Expand shows the members of nested structs and unions inline with
	// absolute offsets, like pahole -E.
	Expand bool
}

// visible returns the indexes of the members to print.
func (o Options) visible(s *layout.Struct) []int {
	var idx []int
	for i := range s.Fields {
		if o.Expand || s.Fields[i].Depth == 0 {
			idx = append(idx, i)
		}
	}
	return idx
}

// boundary is a line boundary inside an object, for one or more line
// sizes at once.
type boundary struct {
	offset int64
	lines  []lineIndex
}

type lineIndex struct{ size, index int64 }

func (b boundary) label() string {
	var parts []string
	for _, l := range b.lines {
		parts = append(parts, fmt.Sprintf("%d B line %d", l.size, l.index))
	}
	return strings.Join(parts, ", ")
}

// crossed returns the boundaries in (after, upTo], keeping for each line
// size only the last one, as pahole does: a member spanning several lines
// is followed by one marker per line size, not one per line.
func crossed(lines []int64, after, upTo int64) []boundary {
	byOffset := map[int64][]lineIndex{}
	var offsets []int64
	for _, l := range lines {
		b := upTo / l * l
		if b <= after || b == 0 {
			continue
		}
		if _, ok := byOffset[b]; !ok {
			offsets = append(offsets, b)
		}
		byOffset[b] = append(byOffset[b], lineIndex{l, b / l})
	}
	slices.Sort(offsets)
	var out []boundary
	for _, off := range offsets {
		out = append(out, boundary{off, byOffset[off]})
	}
	return out
}

// objectPhases returns an object's phases at a line size, for
// phaseSummary.
func objectPhases(o *sharing.Object) func(int64) []int64 {
	return func(line int64) []int64 {
		ps, _ := o.Phases(line)
		return ps
	}
}

// phaseSummary lists the phases at each line size: "0, 32 at 64 B; every
// multiple of 8 below 128 at 128 B".
func phaseSummary(phasesAt func(line int64) []int64, lines []int64) string {
	var parts []string
	for _, l := range lines {
		ps := phasesAt(l)
		strs := make([]string, len(ps))
		for i, p := range ps {
			strs[i] = fmt.Sprint(p)
		}
		if len(ps) > 8 {
			strs = []string{fmt.Sprintf("every multiple of %d below %d", ps[1], l)}
		}
		parts = append(parts, fmt.Sprintf("%s at %d B", strings.Join(strs, ", "), l))
	}
	return strings.Join(parts, "; ")
}
