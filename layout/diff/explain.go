package diff

import (
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
)

// Explanation is a comparison's argument as a reviewer makes it, as
// data for renderers to word: what moved, which members a path no
// longer finds on one line and whether that sharing was true, and for
// each path that changed what changed and where nothing did.
type Explanation struct {
	// Added are the outermost members only the new layout has
	// ("shadow_timekeeper", not its forty fields), Removed those only
	// the old one has.
	Added, Removed []string
	Runs           []MoveRun
	Separated      []SeparatedGroup
	Paths          []PathChanges
}

// MoveRun is a run of members, in order, that all move by Delta bytes.
type MoveRun struct {
	First   string
	Members int // in the run, First included
	Delta   int64
	// Shown are the members of the run that a changed path touches and
	// that change line somewhere (at most maxShown), More the number of
	// others that do.
	Shown []MovedMember
	More  int
}

// maxShown bounds the members of a run shown with their lines.
const maxShown = 4

// MovedMember is a member's offsets, and its lines in every case.
type MovedMember struct {
	Member   string
	Old, New int64
	Lines    []CaseLines
}

// CaseLines is a member's lines before and after in one case.
type CaseLines struct {
	Line, Phase, NewPhase int64 // as in Row
	Old, New              layout.Span
	// Phased is set when the comparison has more than one phase at the
	// line size, so that the phase must be named.
	Phased bool
}

// Case is one line size and phase: the old object's phase and the new
// one's, as in Row.
type Case struct{ Line, Phase, NewPhase int64 }

// SeparatedGroup is a member that moved away from others a path reads
// with it: the partners, the cases, who reads and writes them, and
// whether that sharing was true in every case.
type SeparatedGroup struct {
	Moved            string
	Partners         []string
	Cases            []Case
	Readers, Writers []string
	AllTrue          bool
}

// PathChanges is what changed for one path that got better or worse.
type PathChanges struct {
	Path    string
	Changed []CaseChange
	// Same are the cases where nothing changed; Identical is set when
	// the path touches the same lines in all of them, Lines.
	Same      []Case
	Identical bool
	Lines     []int64
}

// Change says what a changed case differs in, first of: the lines
// touched, the lines shared falsely, the 128-byte blocks at a smaller
// line size.
type Change int

const (
	OtherChange Change = iota
	LinesChange
	FalseChange
	BlocksChange
)

// CaseChange is one changed case of a path: the figures, the members
// that move and from which lines to which, and the members it accesses
// only in the new layout (outermost).
type CaseChange struct {
	Case
	Kind       Change
	Old, New   Figures
	Moves      []SpanMove
	NewMembers []string
	// Joined are the objects of the old scenario the path now finds
	// inside another object (Relocation.New).
	Joined []string
}

// SpanMove is members that move from one span of lines to another.
type SpanMove struct {
	Members  []string
	Old, New layout.Span
}

// Explain works out the argument of a comparison.
func (r *Result) Explain() *Explanation {
	e := &Explanation{Added: r.outermostAdded(), Removed: r.Removed}
	e.Runs = r.moveRuns()
	e.Separated = r.separatedGroups()
	for _, name := range r.PathNames() {
		if pc, ok := r.pathChanges(name); ok {
			e.Paths = append(e.Paths, pc)
		}
	}
	return e
}

func (r *Result) moveRuns() []MoveRun {
	oldS, newS := r.Old.Object.Layout, r.New.Object.Layout
	var runs []MoveRun
	for i := 0; i < len(r.Moves); {
		j := i + 1
		delta := r.Moves[i].New - r.Moves[i].Old
		for j < len(r.Moves) && r.Moves[j].New-r.Moves[j].Old == delta {
			j++
		}
		run := MoveRun{First: r.Moves[i].Member, Members: j - i, Delta: delta}
		for _, m := range r.Moves[i:j] {
			if !r.touchedByChanged(m.Member) {
				continue
			}
			lines, changed := r.caseLines(oldS.Field(m.Member), newS.Field(m.Member))
			switch {
			case !changed:
			case len(run.Shown) < maxShown:
				run.Shown = append(run.Shown, MovedMember{Member: m.Member, Old: m.Old, New: m.New, Lines: lines})
			default:
				run.More++
			}
		}
		runs = append(runs, run)
		i = j
	}
	return runs
}

// outermostAdded reduces the added leaf members to the outermost added
// members holding them.
func (r *Result) outermostAdded() []string {
	s := r.New.Object.Layout
	var out []string
	for _, m := range r.Added {
		top := m
		for i := s.Field(m).Parent; i >= 0; i = s.Fields[i].Parent {
			if slices.Contains(r.Added, s.Fields[i].Path) || !hasLeafOutside(s, i, r.Added) {
				top = s.Fields[i].Path
			}
		}
		out = appendNew(out, top)
	}
	return out
}

// outermostNew returns the outermost member of the new layout that holds
// member and is not in the old layout: shadow_timekeeper for
// shadow_timekeeper.tkr_mono.mult.
func (r *Result) outermostNew(member string) string {
	newS, oldS := r.New.Object.Layout, r.Old.Object.Layout
	f := newS.Field(member)
	if f == nil {
		return member
	}
	top := member
	for i := f.Parent; i >= 0; i = newS.Fields[i].Parent {
		if oldS.Field(newS.Fields[i].Path) == nil {
			top = newS.Fields[i].Path
		}
	}
	return top
}

// hasLeafOutside reports whether the aggregate at index i holds a leaf
// member that is not in added.
func hasLeafOutside(s *layout.Struct, i int, added []string) bool {
	prefix := s.Fields[i].Path + "."
	for _, f := range s.Fields {
		if !f.Aggregate() && strings.HasPrefix(f.Path, prefix) && !slices.Contains(added, f.Path) {
			return true
		}
	}
	return false
}

// touchedByChanged reports whether a path whose figures changed in some
// case accesses the member.
func (r *Result) touchedByChanged(member string) bool {
	for _, p := range r.New.Object.Paths {
		if !slices.ContainsFunc(r.Rows, func(row Row) bool { return row.Path == p.Name && row.Verdict != Same }) {
			continue
		}
		for _, a := range p.Accesses {
			if a.Member == member || strings.HasPrefix(member, a.Member+".") {
				return true
			}
		}
	}
	return false
}

// caseLines gives a member's lines before and after in every case, and
// whether they differ anywhere.
func (r *Result) caseLines(o, n *layout.Field) ([]CaseLines, bool) {
	var out []CaseLines
	changed := false
	for _, line := range r.Lines {
		var cases [][2]int64 // the rows' old and new phases
		for _, row := range r.Rows {
			if c := [2]int64{row.Phase, row.NewPhase}; row.Line == line && !slices.Contains(cases, c) {
				cases = append(cases, c)
			}
		}
		for _, c := range cases {
			os, ns := o.Lines(line, c[0]), n.Lines(line, c[1])
			changed = changed || os != ns
			out = append(out, CaseLines{Line: line, Phase: c[0], NewPhase: c[1], Old: os, New: ns, Phased: len(cases) > 1 || c[0] != c[1]})
		}
	}
	return out, changed
}

// separatedGroups groups the separations by the member that moved.
func (r *Result) separatedGroups() []SeparatedGroup {
	var groups []*SeparatedGroup
	byMoved := map[string]*SeparatedGroup{}
	for _, s := range r.Separations {
		moved, partner := s.B, s.A
		if slices.ContainsFunc(r.Moves, func(m Move) bool { return m.Member == s.A }) &&
			!slices.ContainsFunc(r.Moves, func(m Move) bool { return m.Member == s.B }) {
			moved, partner = s.A, s.B
		}
		g := byMoved[moved]
		if g == nil {
			g = &SeparatedGroup{Moved: moved, AllTrue: true}
			byMoved[moved] = g
			groups = append(groups, g)
		}
		g.Partners = appendNew(g.Partners, partner)
		if c := (Case{s.Line, s.Phase, s.NewPhase}); !slices.Contains(g.Cases, c) {
			g.Cases = append(g.Cases, c)
		}
		for _, x := range s.Readers {
			g.Readers = appendNew(g.Readers, x)
		}
		for _, x := range s.Writers {
			g.Writers = appendNew(g.Writers, x)
		}
		g.AllTrue = g.AllTrue && s.AllTrue
	}
	out := make([]SeparatedGroup, len(groups))
	for i, g := range groups {
		out[i] = *g
	}
	return out
}

// pathChanges works out a path's changed cases and the cases where
// nothing changed; false when nothing changed anywhere.
func (r *Result) pathChanges(name string) (PathChanges, bool) {
	pc := PathChanges{Path: name}
	var same []Row
	for _, row := range r.Rows {
		if row.Path != name {
			continue
		}
		if row.Verdict == Same {
			same = append(same, row)
			continue
		}
		cc := CaseChange{Case: Case{row.Line, row.Phase, row.NewPhase}, Old: row.Old, New: row.New}
		switch {
		case len(row.New.Lines) != len(row.Old.Lines):
			cc.Kind = LinesChange
		case row.New.FalseLines != row.Old.FalseLines:
			cc.Kind = FalseChange
		case row.Line < 128 && row.New.Blocks128 > row.Old.Blocks128:
			cc.Kind = BlocksChange
		}
		// Members that make the same move are named together.
		for _, m := range row.Moved {
			i := slices.IndexFunc(cc.Moves, func(sm SpanMove) bool { return sm.Old == m.Old && sm.New == m.New })
			if i < 0 {
				cc.Moves = append(cc.Moves, SpanMove{Old: m.Old, New: m.New})
				i = len(cc.Moves) - 1
			}
			cc.Moves[i].Members = append(cc.Moves[i].Members, m.Member)
		}
	members:
		for _, m := range row.NewMembers {
			for _, rl := range r.Relocations {
				if m == rl.New || strings.HasPrefix(m, rl.New+".") {
					cc.Joined = appendNew(cc.Joined, rl.New)
					continue members
				}
			}
			cc.NewMembers = appendNew(cc.NewMembers, r.outermostNew(m))
		}
		pc.Changed = append(pc.Changed, cc)
	}
	if len(pc.Changed) == 0 {
		return pc, false
	}
	if len(same) > 0 {
		pc.Identical = true
		for _, row := range same {
			pc.Same = append(pc.Same, Case{row.Line, row.Phase, row.NewPhase})
			pc.Identical = pc.Identical && slices.Equal(row.Old.Lines, row.New.Lines) && slices.Equal(row.New.Lines, same[0].New.Lines)
		}
		pc.Lines = same[0].New.Lines
	}
	return pc, true
}

// PathNames returns the paths of the rows, in order.
func (r *Result) PathNames() []string {
	var names []string
	for _, row := range r.Rows {
		names = appendNew(names, row.Path)
	}
	return names
}

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}
