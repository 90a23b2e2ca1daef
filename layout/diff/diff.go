// Package diff compares two layouts of the same data with the same access
// paths, case by case (line size and phase), and says whether the change
// regresses any of them: the CI gate for "this padding change does not
// hurt 64-byte platforms".
//
// For every path present on both sides it compares the lines touched, the
// 128-byte blocks touched below 128 bytes, and the lines on which the path
// takes part in false sharing. Any increase on any line size is a
// regression. Besides the figures, it builds the argument a reviewer
// would make: which members moved to other lines, which members the
// regressed paths now find on separate lines, and whether the sharing
// between them and their writers is true (which padding cannot remove) or
// false (which it can).
package diff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Verdict is the outcome of one comparison.
type Verdict int

const (
	Same Verdict = iota
	Better
	Worse
	Mixed // better on one figure, worse on another: counted as worse
)

func (v Verdict) String() string {
	return [...]string{"same", "better", "worse", "mixed"}[v]
}

// Figures are one path's numbers in one case: the lines it touches, by
// index, and its cost.
type Figures struct {
	Lines []int64
	sharing.Cost
}

// Row compares one path in one case.
type Row struct {
	Path string
	// Phase is where the old object starts in the case compared and
	// NewPhase where the new one does: the same phase, unless the two
	// cannot start alike (a variable the linker placed elsewhere, a size
	// class that changed), when each side's case is compared with the
	// other's worst.
	Line, Phase, NewPhase int64
	Old, New              Figures
	Verdict               Verdict
	Changes               []FigureChange // each figure that differs
	// Moved are, for a row that is not the same, the members the path
	// accesses whose line differs between the two layouts; New are the
	// members it accesses only in the new one.
	Moved      []MemberLines
	NewMembers []string
}

// FigureChange is one figure of a row that differs between the two sides.
type FigureChange struct {
	Figure   string // "lines", "128-byte blocks" or "false-shared lines"
	Old, New int
}

func (c FigureChange) String() string { return fmt.Sprintf("%s %d → %d", c.Figure, c.Old, c.New) }

// Texts writes changes as "lines 1 → 2", in order.
func Texts(cs []FigureChange) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

// MemberLines is a member's lines before and after, in one case.
type MemberLines struct {
	Member   string
	Old, New layout.Span
}

// Move is a member whose offset changed.
type Move struct {
	Member   string
	Old, New int64
}

// Separation is two members that a path reads which shared a line before
// and no longer do (or the reverse, for Joined).
type Separation struct {
	Line, Phase, NewPhase int64 // as in Row
	A, B                  string
	Readers               []string // paths that access both
	Writers               []string // paths that write both
	AllTrue               bool     // every pair involving the readers on those lines is true sharing
}

// Moved is a placement that changed while the layout did not: a variable
// the linker put elsewhere.
type Moved struct {
	// Phases are the old and new phases per line size, where they differ.
	Lines              []int64
	OldPhase, NewPhase map[int64][]int64
	// OldAddress and NewAddress are the addresses, for placed variables.
	OldAddress, NewAddress uint64
	Placed                 bool
	// Neighbours are the symbols that share the object's first or last
	// line on one side only, as "name (before)" or "name (after)".
	Neighbours []string
}

// Result is the whole comparison.
type Result struct {
	Old, New         *sharing.ObjectAnalysis
	Lines            []int64
	Rows             []Row
	OnlyOld, OnlyNew []string // paths on one side only
	Moves            []Move
	Added, Removed   []string // members on one side only
	Relocations      []Relocation
	Separations      []Separation
	FalseOld         int // false-sharing pairs over all cases
	FalseNew         int
	// Moved is set when the layouts are identical and only where the
	// object starts changed.
	Moved *Moved
	// Judgement is the gate's verdict, without -strict unless the
	// caller judges again (Judge).
	Judgement *Judgement
}

// Regressed reports whether the change fails the gate (GateRule).
func (r *Result) Regressed() bool { return r.Judgement.Regressed() }

// WorseAt returns the line sizes at which the change fails the gate.
func (r *Result) WorseAt() []int64 { return r.Judgement.RegressedAt }

// Comparable reports why two objects are not two layouts of the same
// data that a comparison can judge: laid out for different GOARCHes (or
// ELF machines), or with no access path in common, when a gate would pass
// on nothing.
func Comparable(old, new *sharing.Object) error {
	if old.Layout.Arch != new.Layout.Arch {
		return fmt.Errorf("OLD %s is laid out for %s and NEW %s for %s: compare layouts of one GOARCH (or give -unlike)", old.Layout.Name, old.Layout.Arch, new.Layout.Name, new.Layout.Arch)
	}
	for _, p := range old.Paths {
		for _, q := range new.Paths {
			if p.Name == q.Name {
				return nil
			}
		}
	}
	names := func(o *sharing.Object) string {
		var ns []string
		for _, p := range o.Paths {
			ns = append(ns, p.Name)
		}
		if len(ns) == 0 {
			return "none"
		}
		return strings.Join(ns, ", ")
	}
	return fmt.Errorf("%s and %s have no access path in common (%s: %s; %s: %s), so no case can be compared: give both the same paths (or -unlike)",
		old.Layout.Name, new.Layout.Name, old.Layout.Name, names(old), new.Layout.Name, names(new))
}

// Compare compares two analyses of one object each, at the same line
// sizes. Paths are matched by name.
func Compare(old, new *sharing.ObjectAnalysis, lines []int64) (*Result, error) {
	r := &Result{Old: old, New: new, Lines: lines}
	oldPaths, newPaths := pathIndex(old), pathIndex(new)
	for name := range oldPaths {
		if _, ok := newPaths[name]; !ok {
			r.OnlyOld = append(r.OnlyOld, name)
		}
	}
	for name := range newPaths {
		if _, ok := oldPaths[name]; !ok {
			r.OnlyNew = append(r.OnlyNew, name)
		}
	}
	slices.Sort(r.OnlyOld)
	slices.Sort(r.OnlyNew)

	for _, line := range lines {
		seen := map[[2]int64]bool{}
		for _, phase := range unionPhases(old, new, line) {
			oc, nc := old.Case(line, phase), new.Case(line, phase)
			// A phase reachable on one side only is compared with the
			// other side's worst case at that line size, each case
			// named by its own phase, and each pair of cases once.
			if oc == nil {
				oc = old.Worst(line)
			}
			if nc == nil {
				nc = new.Worst(line)
			}
			if seen[[2]int64{oc.Phase, nc.Phase}] {
				continue
			}
			seen[[2]int64{oc.Phase, nc.Phase}] = true
			for _, p := range old.Object.Paths {
				ni, ok := newPaths[p.Name]
				if !ok {
					continue
				}
				row := compareRow(p.Name, line, oc.Phase, figures(oc, oldPaths[p.Name]), figures(nc, ni))
				row.NewPhase = nc.Phase
				r.Rows = append(r.Rows, row)
			}
			r.FalseOld += len(oc.FalsePairs())
			r.FalseNew += len(nc.FalsePairs())
		}
	}
	r.moves()
	r.Moved = moved(old, new, lines)
	if err := r.separations(); err != nil {
		return nil, err
	}
	r.movedMembers()
	r.Judgement = r.Judge(false)
	return r, nil
}

func pathIndex(oa *sharing.ObjectAnalysis) map[string]int {
	idx := map[string]int{}
	for i, p := range oa.Object.Paths {
		idx[p.Name] = i
	}
	return idx
}

func unionPhases(a, b *sharing.ObjectAnalysis, line int64) []int64 {
	var out []int64
	for _, oa := range []*sharing.ObjectAnalysis{a, b} {
		for _, c := range oa.Cases {
			if c.Line == line && !slices.Contains(out, c.Phase) {
				out = append(out, c.Phase)
			}
		}
	}
	slices.Sort(out)
	return out
}

func figures(c *sharing.Case, path int) Figures {
	f := c.Paths[path]
	return Figures{Lines: f.Lines, Cost: f.Cost(c.Line)}
}

func compareRow(name string, line, phase int64, old, new Figures) Row {
	row := Row{Path: name, Line: line, Phase: phase, Old: old, New: new}
	better, worse := false, false
	note := func(what string, o, n int) {
		switch {
		case n > o:
			worse = true
		case n < o:
			better = true
		default:
			return
		}
		row.Changes = append(row.Changes, FigureChange{Figure: what, Old: o, New: n})
	}
	note("lines", len(old.Lines), len(new.Lines))
	if line < 128 {
		note("128-byte blocks", old.Blocks128, new.Blocks128)
	}
	note("false-shared lines", old.FalseLines, new.FalseLines)
	switch {
	case worse && better:
		row.Verdict = Mixed
	case worse:
		row.Verdict = Worse
	case better:
		row.Verdict = Better
	}
	return row
}

// moves lists the leaf members whose offset changed, and those on one
// side only.
func (r *Result) moves() {
	oldS, newS := r.Old.Object.Layout, r.New.Object.Layout
	for _, f := range leaves(oldS) {
		nf := newS.Field(f.Path)
		switch {
		case nf == nil:
			r.Removed = append(r.Removed, f.Path)
		case nf.Offset != f.Offset:
			r.Moves = append(r.Moves, Move{f.Path, f.Offset, nf.Offset})
		}
	}
	for _, f := range leaves(newS) {
		if oldS.Field(f.Path) == nil {
			r.Added = append(r.Added, f.Path)
		}
	}
	r.relocations()
}

// Relocation is an object of the old scenario that the new one holds as
// a member of another object: v6.1's shadow_timekeeper, from v6.13
// tk_core.shadow_timekeeper; its members are then neither added nor
// removed.
type Relocation struct {
	Old, New string
	Offset   int64 // of New in the new layout
}

// relocations finds the outermost members of the old layout (the objects
// of a scenario) that the new one lacks but holds, under the same name or
// the last word of it (timekeeper_lock as tk_core.lock), one level down.
func (r *Result) relocations() {
	oldS, newS := r.Old.Object.Layout, r.New.Object.Layout
	for i := range oldS.Fields {
		f := &oldS.Fields[i]
		if f.Depth != 0 || !f.Aggregate() || newS.Field(f.Path) != nil {
			continue
		}
		for j := range newS.Fields {
			g := &newS.Fields[j]
			if g.Depth != 1 || g.Name == "" || g.Name != f.Name && !strings.HasSuffix(f.Name, "_"+g.Name) || oldS.Field(g.Path) != nil {
				continue
			}
			r.Relocations = append(r.Relocations, Relocation{Old: f.Path, New: g.Path, Offset: g.Offset})
			r.Removed = slices.DeleteFunc(r.Removed, func(m string) bool { return strings.HasPrefix(m, f.Path+".") })
			r.Added = slices.DeleteFunc(r.Added, func(m string) bool { return m == g.Path || strings.HasPrefix(m, g.Path+".") })
			break
		}
	}
}

// moved returns the placement change of two identical layouts, or nil
// when the layouts differ or start alike at every line size.
func moved(old, new *sharing.ObjectAnalysis, lines []int64) *Moved {
	os, ns := old.Object.Layout, new.Object.Layout
	if !sameLayout(os, ns) {
		return nil
	}
	m := &Moved{OldPhase: map[int64][]int64{}, NewPhase: map[int64][]int64{}}
	for _, line := range lines {
		op, _ := old.Object.Phases(line)
		np, _ := new.Object.Phases(line)
		if !slices.Equal(op, np) {
			m.Lines = append(m.Lines, line)
			m.OldPhase[line], m.NewPhase[line] = op, np
		}
	}
	if len(m.Lines) == 0 {
		return nil
	}
	if os.Placed && ns.Placed {
		m.Placed, m.OldAddress, m.NewAddress = true, os.Address, ns.Address
		edge := func(s *layout.Struct) []string {
			var names []string
			for _, n := range s.Neighbours {
				names = append(names, n.Name)
			}
			return names
		}
		oldN, newN := edge(os), edge(ns)
		for _, n := range oldN {
			if !slices.Contains(newN, n) {
				m.Neighbours = append(m.Neighbours, n+" (before)")
			}
		}
		for _, n := range newN {
			if !slices.Contains(oldN, n) {
				m.Neighbours = append(m.Neighbours, n+" (after)")
			}
		}
	}
	return m
}

// sameLayout reports whether two layouts have the same size, alignment
// and members at the same offsets.
func sameLayout(a, b *layout.Struct) bool {
	if a.Size != b.Size || a.Align != b.Align || a.PaddedTo != b.PaddedTo || len(a.Fields) != len(b.Fields) {
		return false
	}
	for i := range a.Fields {
		f, g := &a.Fields[i], &b.Fields[i]
		if f.Path != g.Path || f.Offset != g.Offset || f.Size != g.Size || f.BitOffset != g.BitOffset || f.BitSize != g.BitSize {
			return false
		}
	}
	return true
}

func leaves(s *layout.Struct) []*layout.Field {
	var out []*layout.Field
	for i := range s.Fields {
		if f := &s.Fields[i]; !f.Aggregate() {
			out = append(out, f)
		}
	}
	return out
}

// separations finds, for each worse row, the pairs of members the path
// accesses that shared a line before and no longer do, with the paths
// that read and write both: the heart of a reviewer's argument.
func (r *Result) separations() error {
	oldT, err := resolveAll(r.Old.Object)
	if err != nil {
		return err
	}
	newT, err := resolveAll(r.New.Object)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, row := range r.Rows {
		if row.Verdict != Worse && row.Verdict != Mixed {
			continue
		}
		ot, nt := oldT[row.Path], newT[row.Path]
		for i, a := range nt {
			for _, b := range nt[i+1:] {
				if a.Member == b.Member {
					continue
				}
				oa, ob := find(ot, a.Member), find(ot, b.Member)
				if oa == nil || ob == nil {
					continue
				}
				sameBefore := sameLine(*oa, *ob, row.Line, row.Phase)
				sameAfter := sameLine(a, b, row.Line, row.NewPhase)
				if !sameBefore || sameAfter {
					continue
				}
				key := fmt.Sprint(row.Line, row.Phase, row.NewPhase, a.Member, b.Member)
				if seen[key] {
					continue
				}
				seen[key] = true
				sep := Separation{Line: row.Line, Phase: row.Phase, NewPhase: row.NewPhase, A: a.Member, B: b.Member}
				sep.Readers, sep.Writers = accessorsOfBoth(r.New.Object, newT, a, b)
				if len(sep.Readers) == 0 {
					// Members only writers use together: what their
					// separation costs is the writers' lines, which
					// the rows count; no reader's argument is in it.
					continue
				}
				sep.AllTrue = allTrue(r.New, row.Line, row.NewPhase, sep.Readers)
				r.Separations = append(r.Separations, sep)
			}
		}
	}
	slices.SortStableFunc(r.Separations, func(x, y Separation) int {
		return cmp.Or(cmp.Compare(x.Line, y.Line), cmp.Compare(x.Phase, y.Phase))
	})
	return nil
}

// movedMembers fills Row.Moved for the rows that changed.
func (r *Result) movedMembers() {
	oldT, _ := resolveAll(r.Old.Object) // resolved once already by separations
	newT, _ := resolveAll(r.New.Object)
	for i := range r.Rows {
		row := &r.Rows[i]
		if row.Verdict == Same {
			continue
		}
		for _, nt := range newT[row.Path] {
			ot := find(oldT[row.Path], nt.Member)
			if ot == nil {
				if !slices.Contains(row.NewMembers, nt.Member) {
					row.NewMembers = append(row.NewMembers, nt.Member)
				}
				continue
			}
			os := layout.SpanOf(ot.Offset, ot.End-ot.Offset, row.Line, row.Phase)
			ns := layout.SpanOf(nt.Offset, nt.End-nt.Offset, row.Line, row.NewPhase)
			if os != ns && !slices.ContainsFunc(row.Moved, func(m MemberLines) bool { return m.Member == nt.Member }) {
				row.Moved = append(row.Moved, MemberLines{nt.Member, os, ns})
			}
		}
	}
}

func resolveAll(o *sharing.Object) (map[string][]access.Touch, error) {
	out := map[string][]access.Touch{}
	for _, p := range o.Paths {
		t, err := access.Resolve(p, o.Layout)
		if err != nil {
			return nil, err
		}
		out[p.Name] = t
	}
	return out, nil
}

func find(ts []access.Touch, member string) *access.Touch {
	for i := range ts {
		if ts[i].Member == member {
			return &ts[i]
		}
	}
	return nil
}

// sameLine reports whether two accesses lie on one and the same line.
func sameLine(a, b access.Touch, line, phase int64) bool {
	sa := layout.SpanOf(a.Offset, a.End-a.Offset, line, phase)
	sb := layout.SpanOf(b.Offset, b.End-b.Offset, line, phase)
	return !sa.Straddles() && !sb.Straddles() && sa.First == sb.First
}

// accessorsOfBoth returns the paths that access both members and those
// that write both.
func accessorsOfBoth(o *sharing.Object, touches map[string][]access.Touch, a, b access.Touch) (readers, writers []string) {
	for _, p := range o.Paths {
		ra, wa := touchesRange(touches[p.Name], a)
		rb, wb := touchesRange(touches[p.Name], b)
		if wa && wb {
			writers = append(writers, p.Name)
		} else if ra && rb {
			readers = append(readers, p.Name)
		}
	}
	return readers, writers
}

// touchesRange reports whether the accesses touch, and write, any byte of
// the range of t.
func touchesRange(ts []access.Touch, t access.Touch) (touches, writes bool) {
	for _, x := range ts {
		if x.Offset < t.End && t.Offset < x.End {
			touches = true
			writes = writes || x.Op.Writes()
		}
	}
	return touches, writes
}

// allTrue reports whether every pair involving the readers in the case
// is true sharing.
func allTrue(oa *sharing.ObjectAnalysis, line, phase int64, readers []string) bool {
	c := oa.Case(line, phase)
	if c == nil {
		return false
	}
	for _, l := range c.Lines {
		for _, p := range l.Pairs {
			if !p.True && (slices.Contains(readers, p.Other) || slices.Contains(readers, p.Writer)) {
				return false
			}
		}
	}
	return true
}
