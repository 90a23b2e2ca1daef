package sharing

import (
	"cmp"
	"slices"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/placement"
)

// Object is one layout, the paths that touch it, and where it can start.
type Object struct {
	Layout *layout.Struct
	Paths  []*access.Path
	// Placement is where the object can start (placement.For decides
	// it); nil: at any multiple of its alignment, or at its address.
	Placement placement.Policy
}

// Phases returns the offsets modulo line at which the object can start,
// with the reason.
func (o *Object) Phases(line int64) ([]int64, string) { return o.Placement.Phases(o.Layout, line) }

// Relaid returns the object with another layout of its type, placed as
// it is: a candidate order or padding of its members.
func (o *Object) Relaid(s *layout.Struct) *Object {
	return &Object{Layout: s, Paths: o.Paths, Placement: o.Placement}
}

// Case is the analysis of one object at one line size and phase.
type Case struct {
	Line, Phase int64
	Paths       []PathFigures // in the order of Object.Paths
	Lines       []LineShare   // every line of the object, in order
}

// PathFigures are what one path costs in one case.
type PathFigures struct {
	Path  *access.Path
	Lines []int64 // indexes of the lines touched, line 0 holding the object's first byte
	// Blocks128 counts the 128-byte blocks touched: the pairs of lines
	// that Intel's spatial prefetcher fetches together, with line 0 where
	// layout.Struct.BlockOffset puts it in its pair. From 128 up it
	// equals len(Lines).
	Blocks128  int
	FalseLines []int64 // lines where the path meets a writer, or is a writer met, falsely
	TrueLines  []int64 // lines where the sharing is true
	Exposed    []int64 // lines shared with unknown neighbours
}

// LineShare is who meets whom on one line.
type LineShare struct {
	Index    int64
	Members  []string // the leaf members with bytes on the line
	Writers  []string // paths storing into the line
	Touchers []string // paths touching the line
	Pairs    []Pair
	// Exposed is set when the line also holds bytes outside the object:
	// ExposedBefore bytes before its start, ExposedAfter past its end.
	ExposedBefore, ExposedAfter int64
}

// Exposed reports whether the line holds bytes of unknown neighbours.
func (l *LineShare) Exposed() bool { return l.ExposedBefore > 0 || l.ExposedAfter > 0 }

// Pair is a writer and another path on one line. Writer == Other is a
// path that runs on several CPUs at once and so contends with itself.
type Pair struct {
	Writer, Other string
	True          bool
	// Members are, for true sharing, the other path's members that the
	// writer writes; for false sharing, the other path's members on the
	// line, none of which the writer writes.
	Members []string
	Weight  float64 // the writer's accesses per second (access.Path.Weight)
}

// Analysis is every case of every object.
type Analysis struct {
	Objects []ObjectAnalysis
	Lines   []int64
}

// ObjectAnalysis is one object's cases, for each line size in order and
// each of its phases.
type ObjectAnalysis struct {
	Object *Object
	Cases  []Case
	// PhaseReasons says, per line size, why the object starts where it
	// does.
	PhaseReasons map[int64]string
}

// nominalCPUs is how many CPUs "all" stands for when weighing paths: the
// figures compare layouts, so any fixed number larger than one will do.
const nominalCPUs = 8

// Analyze resolves every path of every object and computes all cases.
// A path that names a member the object lacks is an error.
func Analyze(objects []*Object, lines []int64) (*Analysis, error) {
	a := &Analysis{Lines: lines}
	for _, o := range objects {
		touches := make([][]access.Touch, len(o.Paths))
		for i, p := range o.Paths {
			t, err := access.Resolve(p, o.Layout)
			if err != nil {
				return nil, err
			}
			touches[i] = t
		}
		oa := ObjectAnalysis{Object: o, PhaseReasons: map[int64]string{}}
		for _, line := range lines {
			phases, reason := o.Phases(line)
			oa.PhaseReasons[line] = reason
			for _, phase := range phases {
				oa.Cases = append(oa.Cases, analyzeCase(o, touches, line, phase))
			}
		}
		a.Objects = append(a.Objects, oa)
	}
	return a, nil
}

// span is a byte range [off, end) of the object.
type span struct{ off, end int64 }

func overlaps(a, b span) bool { return a.off < b.end && b.off < a.end }

func anyOverlap(as, bs []span) bool {
	for _, a := range as {
		for _, b := range bs {
			if overlaps(a, b) {
				return true
			}
		}
	}
	return false
}

func analyzeCase(o *Object, touches [][]access.Touch, line, phase int64) Case {
	s := o.Layout
	c := Case{Line: line, Phase: phase}
	if s.Size == 0 {
		return c
	}
	objLines := layout.SpanOf(0, s.Size, line, phase)
	n := objLines.Last + 1
	// Per line, per path: the bytes touched and written and the members
	// touched there, for the lines some path touches: a large object
	// has many lines, most untouched.
	type lineTouches struct {
		touched, written [][]span
		members          [][]string
	}
	lines := make([]*lineTouches, n)
	for pi, ts := range touches {
		for _, t := range ts {
			if t.End == t.Offset {
				continue // a zero-size member has no bytes to share
			}
			sp := layout.SpanOf(t.Offset, t.End-t.Offset, line, phase)
			for l := sp.First; l <= sp.Last; l++ {
				lt := lines[l]
				if lt == nil {
					lt = &lineTouches{make([][]span, len(o.Paths)), make([][]span, len(o.Paths)), make([][]string, len(o.Paths))}
					lines[l] = lt
				}
				lo, hi := max(t.Offset, l*line-phase), min(t.End, (l+1)*line-phase)
				lt.touched[pi] = append(lt.touched[pi], span{lo, hi})
				if t.Op.Writes() {
					lt.written[pi] = append(lt.written[pi], span{lo, hi})
				}
				if !slices.Contains(lt.members[pi], t.Member) {
					lt.members[pi] = append(lt.members[pi], t.Member)
				}
			}
		}
	}

	c.Paths = make([]PathFigures, len(o.Paths))
	for pi, p := range o.Paths {
		c.Paths[pi].Path = p
	}
	for l := range n {
		ls := LineShare{Index: l, Members: leafMembers(s, span{l*line - phase, (l+1)*line - phase})}
		if start := l*line - phase; start < 0 {
			ls.ExposedBefore = -start
		}
		if end := (l+1)*line - phase; end > paddedEnd(s, phase) {
			ls.ExposedAfter = end - paddedEnd(s, phase)
		}
		lt := lines[l]
		if lt == nil {
			c.Lines = append(c.Lines, ls)
			continue
		}
		touched, written, members := lt.touched, lt.written, lt.members
		for pi, p := range o.Paths {
			if len(touched[pi]) == 0 {
				continue
			}
			ls.Touchers = append(ls.Touchers, p.Name)
			if len(written[pi]) > 0 {
				ls.Writers = append(ls.Writers, p.Name)
			}
			f := &c.Paths[pi]
			f.Lines = append(f.Lines, l)
			if ls.Exposed() {
				f.Exposed = append(f.Exposed, l)
			}
		}
		for wi, w := range o.Paths {
			if len(written[wi]) == 0 {
				continue
			}
			for pi, p := range o.Paths {
				if len(touched[pi]) == 0 || (pi == wi && !p.Contended()) {
					continue
				}
				pair := Pair{Writer: w.Name, Other: p.Name, Weight: w.Weight(nominalCPUs)}
				pair.True = pi == wi || anyOverlap(touched[pi], written[wi])
				for _, m := range members[pi] {
					if !pair.True || pi == wi || anyOverlap(memberSpans(touches[pi], m, l, line, phase), written[wi]) {
						pair.Members = append(pair.Members, m)
					}
				}
				ls.Pairs = append(ls.Pairs, pair)
				mark(&c.Paths[pi], l, pair.True)
				mark(&c.Paths[wi], l, pair.True)
			}
		}
		c.Lines = append(c.Lines, ls)
	}
	pairOffset := s.BlockOffset(line)
	for pi := range c.Paths {
		f := &c.Paths[pi]
		f.Blocks128 = len(f.Lines)
		if line < 128 {
			blocks := map[int64]bool{}
			for _, l := range f.Lines {
				blocks[(l*line+pairOffset)/128] = true
			}
			f.Blocks128 = len(blocks)
		}
	}
	return c
}

// paddedEnd is where the next object can begin, in object coordinates:
// the end, or the next multiple of PaddedTo in the address space.
func paddedEnd(s *layout.Struct, phase int64) int64 {
	if s.PaddedTo == 0 {
		return s.Size
	}
	skew := phase % s.PaddedTo
	return (s.Size+skew+s.PaddedTo-1)/s.PaddedTo*s.PaddedTo - skew
}

// mark records that the path takes part in true or false sharing on line
// l. A line where the path meets one writer truly and another falsely
// counts as false: padding could still help there.
func mark(f *PathFigures, l int64, isTrue bool) {
	if isTrue {
		if !slices.Contains(f.TrueLines, l) && !slices.Contains(f.FalseLines, l) {
			f.TrueLines = append(f.TrueLines, l)
		}
		return
	}
	f.TrueLines = slices.DeleteFunc(f.TrueLines, func(x int64) bool { return x == l })
	if !slices.Contains(f.FalseLines, l) {
		f.FalseLines = append(f.FalseLines, l)
	}
}

// memberSpans returns the bytes on line l of the path's accesses to member.
func memberSpans(ts []access.Touch, member string, l, line, phase int64) []span {
	var out []span
	for _, t := range ts {
		if t.Member == member {
			lo, hi := max(t.Offset, l*line-phase), min(t.End, (l+1)*line-phase)
			if lo < hi {
				out = append(out, span{lo, hi})
			}
		}
	}
	return out
}

// leafMembers returns the paths of the members that are not aggregates
// and have bytes in r.
func leafMembers(s *layout.Struct, r span) []string {
	var out []string
	for i := range s.Fields {
		f := &s.Fields[i]
		if f.Aggregate() || f.Size == 0 {
			continue
		}
		if overlaps(span{f.Offset, f.End()}, r) {
			out = append(out, f.Path)
		}
	}
	return out
}

// Case returns the case of a line size and phase, nil when the object
// cannot start there.
func (oa *ObjectAnalysis) Case(line, phase int64) *Case {
	for i := range oa.Cases {
		if c := &oa.Cases[i]; c.Line == line && c.Phase == phase {
			return c
		}
	}
	return nil
}

// Worst returns, among the cases of one line size, the one whose false
// sharing weighs most, then whose paths touch the most lines.
func (oa *ObjectAnalysis) Worst(line int64) *Case {
	var worst *Case
	for i := range oa.Cases {
		c := &oa.Cases[i]
		if c.Line != line {
			continue
		}
		if worst == nil || worse(c, worst) > 0 {
			worst = c
		}
	}
	return worst
}

// FalseWeight sums the writer weights of the false-sharing pairs.
func (c *Case) FalseWeight() float64 {
	var w float64
	for _, l := range c.Lines {
		for _, p := range l.Pairs {
			if !p.True {
				w += p.Weight
			}
		}
	}
	return w
}

// FalsePairs returns the false-sharing pairs of the case, heaviest first.
func (c *Case) FalsePairs() []LinePair {
	var out []LinePair
	for _, l := range c.Lines {
		for _, p := range l.Pairs {
			if !p.True {
				out = append(out, LinePair{l.Index, p})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b LinePair) int { return cmp.Compare(b.Weight, a.Weight) })
	return out
}

// LinePair is a pair with the line it meets on.
type LinePair struct {
	Line int64
	Pair
}
