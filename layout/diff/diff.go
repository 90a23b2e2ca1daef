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

// Figures are one path's numbers in one case.
type Figures struct {
	Lines      []int64
	Blocks128  int
	FalseLines int
}

// Row compares one path in one case.
type Row struct {
	Path        string
	Line, Phase int64
	Old, New    Figures
	Verdict     Verdict
	Changes     []string // "lines 1 → 2", "128-byte blocks 1 → 2", ...
	// Moved are, for a row that is not the same, the members the path
	// accesses whose line differs between the two layouts; New are the
	// members it accesses only in the new one.
	Moved      []MemberLines
	NewMembers []string
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
	Line, Phase int64
	A, B        string
	Readers     []string // paths that access both
	Writers     []string // paths that write both
	AllTrue     bool     // every pair involving the readers on those lines is true sharing
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
	// Judgement is the gate's verdict, without -strict unless the
	// caller judges again (Judge).
	Judgement *Judgement
}

// Regressed reports whether the change fails the gate (GateRule).
func (r *Result) Regressed() bool { return r.Judgement.Regressed() }

// WorseAt returns the line sizes at which the change fails the gate.
func (r *Result) WorseAt() []int64 { return r.Judgement.RegressedAt }

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
		for _, phase := range unionPhases(old, new, line) {
			oc, nc := caseAt(old, line, phase), caseAt(new, line, phase)
			// A phase reachable on one side only is compared with the
			// other side's worst case at that line size.
			if oc == nil {
				oc = old.Worst(line)
			}
			if nc == nil {
				nc = new.Worst(line)
			}
			for _, p := range old.Object.Paths {
				ni, ok := newPaths[p.Name]
				if !ok {
					continue
				}
				row := compareRow(p.Name, line, phase, figures(oc, oldPaths[p.Name]), figures(nc, ni))
				r.Rows = append(r.Rows, row)
			}
			r.FalseOld += len(oc.FalsePairs())
			r.FalseNew += len(nc.FalsePairs())
		}
	}
	r.moves()
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

func caseAt(oa *sharing.ObjectAnalysis, line, phase int64) *sharing.Case {
	for i := range oa.Cases {
		if c := &oa.Cases[i]; c.Line == line && c.Phase == phase {
			return c
		}
	}
	return nil
}

func figures(c *sharing.Case, path int) Figures {
	f := c.Paths[path]
	return Figures{Lines: f.Lines, Blocks128: f.Blocks128, FalseLines: len(f.FalseLines)}
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
		row.Changes = append(row.Changes, fmt.Sprintf("%s %d → %d", what, o, n))
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
				sameAfter := sameLine(a, b, row.Line, row.Phase)
				if !sameBefore || sameAfter {
					continue
				}
				key := fmt.Sprint(row.Line, row.Phase, a.Member, b.Member)
				if seen[key] {
					continue
				}
				seen[key] = true
				sep := Separation{Line: row.Line, Phase: row.Phase, A: a.Member, B: b.Member}
				sep.Readers, sep.Writers = accessorsOfBoth(r.New.Object, newT, a, b)
				if len(sep.Readers) == 0 {
					// Members only writers use together: what their
					// separation costs is the writers' lines, which
					// the rows count; no reader's argument is in it.
					continue
				}
				sep.AllTrue = allTrue(r.New, row.Line, row.Phase, sep.Readers)
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
			ns := layout.SpanOf(nt.Offset, nt.End-nt.Offset, row.Line, row.Phase)
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
	c := caseAt(oa, line, phase)
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
