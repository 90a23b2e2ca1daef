package falsesharing

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
)

// consider turns a false-sharing pair into a finding when there is
// evidence for it.
func (c *checker) consider(o object, s *layout.Struct, paths []*access.Path, arch string, cs *sharing.Case, oa *sharing.ObjectAnalysis, lp sharing.LinePair) {
	w, other := lp.Writer, lp.Other
	add := func(f finding, partner string, why evidence) {
		f.pos = o.pos
		c.add(o.tn, s, arch, cs, oa, f, partner, why)
	}
	// Shards of one array meeting on a line: FS1, keyed by the array.
	if wa, _, ok := cutIndex(w); ok {
		if oArr, _, ok := cutIndex(other); ok && oArr == wa {
			if c.insideOwnType(o, wa, wa) {
				return // a table of a member's own type is checked with it
			}
			if o.objects != nil {
				if v := c.judgeObjects(o); v.tier > 0 {
					add(finding{rule: ShardStride, key: wa, a: wa, b: wa, hot: wa, tier: v.tier, objects: o.objects}, "", v.user)
				}
				return
			}
			v := c.judgeShards(o, wa, o.slice, elementIndex(w), elementIndex(other))
			// Elements padded to a whole number of lines meet only
			// where the table starts mid-line.
			padded := false
			if arr := s.Field(wa); elementPadded(arr) {
				v = verdict{tier: Declared, user: evidence{declared: "the elements are padded to be a line apart"}}
				padded = arr.Size/max(arr.Len, 1)%cs.Line == 0
			}
			if v.tier > 0 {
				add(finding{rule: ShardStride, key: wa, a: wa, b: wa, hot: wa, tier: v.tier, paddedToLine: padded}, "", v.user)
				if arr, ok := c.hot.memberVars(o.typ)[wa]; ok && v.tier >= c.cfg.tier {
					if n, ok := types.Unalias(elemOf(arr.Type())).(*types.Named); ok {
						c.tabled[n.Origin().Obj()] = true
					}
				}
			}
			return
		}
	}
	if o.declared {
		// Declared paths name functions; the finding names the members
		// they meet through.
		wm := membersOnLine(s, paths, w, lp.Line, cs.Line, cs.Phase, true)
		if len(wm) == 0 || len(lp.Members) == 0 {
			return
		}
		a, _ := orderedPair(s, wm[0], lp.Members[0])
		partner := lp.Members[0]
		if a != wm[0] {
			partner = wm[0]
		}
		c.addPair(o, s, add, a, partner, verdict{tier: Declared,
			user: evidence{declared: fmt.Sprintf("the //mglayout:path directives declare that %s writes %s and %s touches %s without writing it", w, wm[0], other, lp.Members[0])}})
		return
	}
	// Inferred paths are named after the hot member they write; the
	// other side is another hot member, or the members read beside it.
	hot := baseMember(w)
	partners := lp.Members
	if other != "readers" {
		partners = []string{baseMember(other)}
	}
	// A lock only read-locked is written, and touched, in its reader
	// count alone, which may lie on another line than the rest of it.
	offLine := func(member string) bool {
		words, ok := c.readerCount(o, s, member)
		if !ok {
			return false
		}
		sp := layout.SpanOf(words.Offset, words.Size, cs.Line, cs.Phase)
		return lp.Line < sp.First || lp.Line > sp.Last
	}
	if offLine(hot) {
		return
	}
	partners = slices.DeleteFunc(slices.Clone(partners), offLine)
	var onLine []string
	for _, ls := range cs.Lines {
		if ls.Index == lp.Line {
			onLine = ls.Members
		}
	}
	for _, m := range partners {
		c.addPair(o, s, add, hot, m, c.judgePair(o, hot, m, onLine))
	}
}

// readerCount returns the bytes of a sync.RWMutex member that its
// writers write when every operation that writes it on the steady path
// only takes or releases it for reading: from readerCount to the end
// (readerCount and readerWait, the last 8 of its 24 bytes), at the
// offsets the compiler gives sync's own declaration. RLock on every Get
// writes that word, not the lock's first line.
func (c *checker) readerCount(o object, s *layout.Struct, hot string) (layout.Field, bool) {
	v := c.hot.memberVars(o.typ)[hot]
	f := s.Field(hot)
	if v == nil || f == nil {
		return layout.Field{}, false
	}
	n, ok := types.Unalias(v.Type()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" || n.Obj().Name() != "RWMutex" {
		return layout.Field{}, false
	}
	st, ok := n.Underlying().(*types.Struct)
	sizes := types.SizesFor("gc", s.Arch)
	if !ok || sizes == nil {
		return layout.Field{}, false
	}
	var fields []*types.Var
	at := -1
	for i := range st.NumFields() {
		fields = append(fields, st.Field(i))
		if st.Field(i).Name() == "readerCount" {
			at = i
		}
	}
	if at < 0 {
		return layout.Field{}, false
	}
	off := sizes.Offsetsof(fields)[at]
	m := c.model()
	if m == nil {
		return layout.Field{}, false
	}
	wrote := false
	for _, t := range m.Touches(o.owner(hot), hot, false) {
		if t.Writes && !t.ExceptionalOnly && t.Op.Steady() {
			if !t.ReadLocksOnly {
				return layout.Field{}, false
			}
			wrote = true
		}
	}
	return layout.Field{Offset: f.Offset + off, Size: f.Size - off}, wrote
}

// addPair adds a judged pair to the finding of its hot member, or, for
// two hot members, of the earlier one. Deliberate padding between the
// two declares that they are used apart.
func (c *checker) addPair(o object, s *layout.Struct, add func(finding, string, evidence), hot, partner string, v verdict) {
	a, b := orderedPair(s, hot, partner)
	if c.insideOwnType(o, a, b) {
		return // the member's own type is checked, and says so once
	}
	padded := padBetween(s, a, b) != nil
	if padded && v.tier < Declared && (v.tier > 0 || c.hotMember(o, partner) && c.writtenSteadily(o, a, b)) {
		v = verdict{tier: Declared, user: evidence{declared: fmt.Sprintf("the padding between %s and %s declares that they are used apart", a, b)}}
	}
	if v.tier == 0 {
		return
	}
	owner := hot
	if c.hotMember(o, partner) && a == partner && o.vars == nil {
		// Two hot members: the earlier holds the finding. Variables
		// are declared apart, and each is padded apart.
		owner, partner = partner, hot
	}
	key := owner
	if padded {
		key += "|padded|" + partner
	}
	add(finding{rule: Neighbour, key: key, a: a, b: b, hot: owner, tier: v.tier, writer: v.writer}, partner, v.user)
}

// insideOwnType reports whether two members lie inside one member whose
// type is a struct type of this package with values of its own (alone):
// that type's own check judges them.
func (c *checker) insideOwnType(o object, a, b string) bool {
	ta, _, okA := strings.Cut(a, ".")
	tb, _, okB := strings.Cut(b, ".")
	if !okA || !okB || ta != tb || strings.Contains(ta, "[") {
		return false
	}
	v := c.hot.memberVars(o.typ)[ta]
	if v == nil {
		return false
	}
	n, ok := types.Unalias(v.Type()).(*types.Named)
	return ok && n.Obj().Pkg() == c.pass.Pkg && c.alone(n.Origin().Obj())
}

// hotMember reports whether a member is one the inferred paths write.
func (c *checker) hotMember(o object, member string) bool {
	if v := c.hot.memberVars(o.typ)[member]; v != nil && concurrentElem(v.Type()) {
		return true
	}
	return slices.Contains(c.hot.hotMembers(o.tn), member) || slices.Contains(c.hot.paddedMembers(o.typ), member)
}

// membersOnLine returns the members a path accesses (writes, when write
// is set) with bytes on one line of a case.
func membersOnLine(s *layout.Struct, paths []*access.Path, path string, line, size, phase int64, write bool) []string {
	var out []string
	for _, p := range paths {
		if p.Name != path {
			continue
		}
		ts, err := access.Resolve(p, s)
		if err != nil {
			return nil
		}
		for _, t := range ts {
			if write && !t.Op.Writes() || t.End == t.Offset {
				continue
			}
			sp := layout.SpanOf(t.Offset, t.End-t.Offset, size, phase)
			if sp.First <= line && line <= sp.Last && !slices.Contains(out, t.Member) {
				out = append(out, t.Member)
			}
		}
	}
	return out
}

// isLock reports whether a member of the type is a sync.Mutex or RWMutex.
func (c *checker) isLock(typ types.Type, member string) bool {
	v := c.hot.memberVars(typ)[member]
	return v != nil && isMutex(v.Type())
}

// cutIndex splits "shards[3]" (or "shards[3].n") into "shards" and 3.
// elementIndex returns the index of the element a path names, "3" for
// "a[3].n".
func elementIndex(path string) string {
	_, rest, _ := cutIndex(path)
	i, _, _ := strings.Cut(rest, "]")
	return i
}

func cutIndex(path string) (string, string, bool) {
	base, rest, ok := strings.Cut(path, "[")
	return base, rest, ok
}

// baseMember strips an element's index: shards[3].n → shards[].n is not a
// member path of the layout, so the evidence is looked up for the array.
func baseMember(path string) string {
	base, _, _ := strings.Cut(path, "[")
	return base
}

// orderedPair returns the two members in offset order.
func orderedPair(s *layout.Struct, a, b string) (string, string) {
	fa, fb := s.Field(a), s.Field(b)
	if fa != nil && fb != nil && fb.Offset < fa.Offset {
		return b, a
	}
	return a, b
}
