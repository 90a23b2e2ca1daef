package suggest

import (
	"fmt"
	"slices"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
)

// maxPads bounds the padding inserted: each pad separates one pair of
// member groups, and a struct with more false sharers than this wants a
// different design, not more padding.
const maxPads = 8

// separate inserts padding between the outermost members that a writer
// and another path share a line through falsely, until no such pair is
// left at any line size and phase. A pad is as long as the largest line
// size requires, so that the two members can share no line wherever the
// object starts.
func separate(obj *sharing.Object, o Options) (*layout.Struct, []Pad, []string, error) {
	s, paths := obj.Layout, obj.Paths
	var pads []Pad
	var unresolved []string
	lmax := slices.Max(o.Lines)
	for len(pads) < maxPads {
		a, err := sharing.Analyze([]*sharing.Object{obj.Relaid(s)}, o.Lines)
		if err != nil {
			return nil, nil, nil, err
		}
		pair, ok := heaviestFalse(&a.Objects[0])
		if !ok {
			break
		}
		touches, err := resolveAll(paths, s)
		if err != nil {
			return nil, nil, nil, err
		}
		w := topMembers(s, touches[pair.Writer], true)
		p := topMembers(s, touches[pair.Other], false)
		before, ok := splitPoint(w, p)
		if !ok {
			where := "members that interleave"
			if i := overlap(w, p); i >= 0 {
				where = s.Fields[i].Path
			}
			unresolved = append(unresolved, fmt.Sprintf("%s and %s share a line through %s: padding between members cannot separate them (pad inside the member, or give each writer a line of its own)",
				pair.Writer, pair.Other, where))
			break
		}
		root := tree(s)
		var prevEnd int64
		for _, k := range root.kids {
			if k.orig == before {
				break
			}
			prevEnd = k.f.Offset + k.f.Size
		}
		gap := s.Fields[before].Offset - prevEnd
		size := max(lmax-1-gap, 1)
		pad := &node{orig: -1, f: layout.Field{Name: "_", Path: "_", Type: fmt.Sprintf("[%d]byte", size),
			Kind: layout.KindArray, Len: size, Size: size, Align: 1}}
		i := slices.IndexFunc(root.kids, func(k *node) bool { return k.orig == before })
		root.kids = slices.Insert(root.kids, i, pad)
		root.relayout(s.Source == layout.SourceGo)
		pads = append(pads, Pad{Before: s.Fields[before].Path, Bytes: size})
		s = flatten(s, root)
	}
	return s, pads, unresolved, nil
}

// heaviestFalse returns the false-sharing pair with the heaviest writer
// over all cases.
func heaviestFalse(oa *sharing.ObjectAnalysis) (sharing.LinePair, bool) {
	var best sharing.LinePair
	found := false
	for ci := range oa.Cases {
		for _, p := range oa.Cases[ci].FalsePairs() {
			if !found || p.Weight > best.Weight {
				best, found = p, true
			}
		}
	}
	return best, found
}

func resolveAll(paths []*access.Path, s *layout.Struct) (map[string][]access.Touch, error) {
	out := map[string][]access.Touch{}
	for _, p := range paths {
		t, err := access.Resolve(p, s)
		if err != nil {
			return nil, err
		}
		out[p.Name] = t
	}
	return out, nil
}

// topMembers returns the indexes of the outermost members that the
// touches write (writes) or touch.
func topMembers(s *layout.Struct, ts []access.Touch, writes bool) []int {
	var out []int
	for _, i := range s.Members(-1) {
		f := &s.Fields[i]
		for _, t := range ts {
			if (!writes || t.Op.Writes()) && t.Offset < f.End() && f.Offset < t.End && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	return out
}

// splitPoint returns the member before which padding separates the two
// groups: the first member of whichever group comes second. It fails when
// the groups interleave or share a member.
func splitPoint(a, b []int) (int, bool) {
	if overlap(a, b) >= 0 || len(a) == 0 || len(b) == 0 {
		return 0, false
	}
	switch {
	case slices.Max(a) < slices.Min(b):
		return slices.Min(b), true
	case slices.Max(b) < slices.Min(a):
		return slices.Min(a), true
	}
	return 0, false
}

func overlap(a, b []int) int {
	for _, x := range a {
		if slices.Contains(b, x) {
			return x
		}
	}
	return -1
}
