package falsesharing

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/sharing"
)

// finding is one problem, gathered over every GOARCH, line size and phase
// where it shows, and reported once.
type finding struct {
	rule *Rule
	key  string
	a, b string // the first pair that meets, in offset order; for FS1 the array, twice
	hot  string // the hot member (or the shard table) the finding is about
	// partners are the members that meet the hot one, in the order
	// found, each with the evidence that they are used apart.
	partners []partner
	why      evidence // the evidence, for FS1
	writer   Side     // who writes the hot member, for FS2
	// objects is set for objects a loop allocates one by one.
	objects *objectsRun
	// paddedToLine is set for a table whose elements are padded to a
	// whole line: they meet only at their edges, where the table starts
	// mid-line.
	paddedToLine bool
	// exposed is set for a hot member beside cache-line padding whose
	// line holds memory outside the object.
	exposed bool
	// previous is set for an exposure through the head run alone
	// (leadingRun): to the previous object, which no edge pad names.
	previous *previousObject
	tier     Tier         // the strongest evidence of any partner
	tn       types.Object // the type, or the variable of a package-level array
	// where: per GOARCH and line size, the phases at which the members
	// share a line, all phases, and why the object starts there.
	where   map[archLine]*phases
	layouts map[string]*layout.Struct // per GOARCH
	// pos, when set, is where to report instead of the member: the field
	// of a slice or the variable of an array the object stands for.
	pos token.Pos
}

// previousObject is the object before a heap object of the same size
// class, taken to be of its type: the stride apart, and its members on
// the first line of the head run.
type previousObject struct {
	stride  int64
	members []string
}

type partner struct {
	member string
	why    evidence
	tier   Tier
}

type archLine struct {
	arch string
	line int64
}

type phases struct {
	hit, all []int64
	reason   string
}

func (c *checker) add(tn types.Object, s *layout.Struct, arch string, cs *sharing.Case, oa *sharing.ObjectAnalysis, f finding, partnerMember string, why evidence) {
	key := tn.Name() + "|" + f.rule.ID + "|" + f.key
	g := c.found[key]
	if g == nil {
		f.tn = tn
		f.where = map[archLine]*phases{}
		f.layouts = map[string]*layout.Struct{}
		g = &f
		c.found[key] = g
		c.order = append(c.order, key)
	}
	if f.tier > g.tier || g.writer.Op == "" {
		g.writer = f.writer
	}
	g.tier = max(g.tier, f.tier)
	if partnerMember == "" {
		if f.tier >= g.tier {
			g.why = why
		}
	} else if i := slices.IndexFunc(g.partners, func(p partner) bool { return p.member == partnerMember }); i < 0 {
		g.partners = append(g.partners, partner{partnerMember, why, f.tier})
	} else if f.tier > g.partners[i].tier {
		g.partners[i] = partner{partnerMember, why, f.tier}
	}
	g.layouts[arch] = s
	al := archLine{arch, cs.Line}
	p := g.where[al]
	if p == nil {
		p = &phases{reason: oa.PhaseReasons[cs.Line]}
		for _, other := range oa.Cases {
			if other.Line == cs.Line {
				p.all = append(p.all, other.Phase)
			}
		}
		g.where[al] = p
	}
	if !slices.Contains(p.hit, cs.Phase) {
		p.hit = append(p.hit, cs.Phase)
	}
}

// reportAll classifies and reports every finding with enough evidence,
// in the order found.
func (c *checker) reportAll() {
	// A member with a pair finding gets no finding of its own for the
	// previous object on its line: one finding per hot member, and the
	// pair's fix pads against that object too (withHeadPad).
	type member struct {
		tn   types.Object
		name string
	}
	paired := map[member]bool{}
	for _, f := range c.found {
		if !f.exposed && f.tier >= c.cfg.tier {
			paired[member{f.tn, f.a}], paired[member{f.tn, f.b}] = true, true
		}
	}
	for _, key := range c.order {
		f := c.found[key]
		if f.previous != nil && paired[member{f.tn, f.hot}] {
			continue
		}
		if f.paddedToLine && f.somePhases() {
			// The padding was sized right; whether the table starts
			// where its elements meet is the allocator's to say, and
			// a guess.
			f.tier, f.why = Likely, evidence{declared: "the elements are padded to a line, but the table can start where their edges meet"}
		}
		if f.tier < c.cfg.tier || f.exposed && c.tabled[f.tn] {
			// An element type's exposure is its table's finding.
			continue
		}
		// Partners with less evidence than asked for are left out.
		f.partners = slices.DeleteFunc(f.partners, func(p partner) bool { return p.tier < c.cfg.tier })
		switch {
		case f.exposed:
			f.rule = c.classifyExposed(f)
		case f.rule == Neighbour:
			f.rule = c.classify(f)
		}
		c.reportFinding(f)
	}
}

// classify decides between FS2, FS3 and FS4 for two members that meet on
// a line: with deliberate padding between them, the padding is short for
// a larger line (FS4) or works at some phases only (FS3); otherwise the
// members simply share a line (FS2).
func (c *checker) classify(f *finding) *Rule {
	s := c.anyLayout(f)
	if padBetween(s, f.a, f.b) == nil {
		return Neighbour
	}
	// Line sizes at which the padding works at every phase, and those at
	// which it fails at every phase.
	var works []int64
	for _, p := range c.allCases(f) {
		if len(p.hit) == 0 {
			works = append(works, p.line)
		}
	}
	for al, p := range f.where {
		if len(p.hit) > 0 && slices.ContainsFunc(works, func(l int64) bool { return l < al.line }) {
			return ShortPadding
		}
	}
	for _, p := range f.where {
		if len(p.hit) < len(p.all) {
			return PhasePadding
		}
	}
	return ShortPadding
}

type lineCase struct {
	line int64
	hit  []int64
}

// allCases lists the line sizes checked for every GOARCH, with the phases
// where the finding showed (none where it did not).
func (c *checker) allCases(f *finding) []lineCase {
	var out []lineCase
	for _, arch := range c.cfg.archs {
		for _, l := range c.cfg.linesFor(arch) {
			var hit []int64
			if p := f.where[archLine{arch, l}]; p != nil {
				hit = p.hit
			}
			out = append(out, lineCase{l, hit})
		}
	}
	return out
}

func (c *checker) anyLayout(f *finding) *layout.Struct {
	for _, arch := range c.cfg.archs {
		if s := f.layouts[arch]; s != nil {
			return s
		}
	}
	return nil
}

// padBetween returns a deliberate padding member between two members,
// at any depth (a pad inside an embedded struct separates its members
// in its holder too), or nil.
func padBetween(s *layout.Struct, a, b string) *layout.Field {
	fa, fb := s.Field(a), s.Field(b)
	if fa == nil || fb == nil {
		return nil
	}
	for i := range s.Fields {
		f := &s.Fields[i]
		if f.Offset >= fa.End() && f.End() <= fb.Offset && isPadding(f) {
			return f
		}
	}
	return nil
}

// isPadding is layout.Field.Padding, as a function for slices.ContainsFunc.
func isPadding(f *layout.Field) bool { return f.Padding() }

// where describes the GOARCHes, line sizes and phases of a finding.
// GOARCHes at one line size where it holds at the same phases are named
// together: 64 B lines on amd64 and arm64.
func (f *finding) whereText() string {
	type place struct {
		line   int64
		phases string
		archs  []string
	}
	var places []place
	for _, al := range f.sortedWhere() {
		p := f.where[al]
		slices.Sort(p.hit)
		var phases string
		if len(p.hit) < len(p.all) {
			phases = fmt.Sprintf(" when the %s starts %s bytes into one", f.tn.Name(), joinInts(p.hit))
		}
		if n := len(places); n > 0 && places[n-1].line == al.line && places[n-1].phases == phases {
			places[n-1].archs = append(places[n-1].archs, al.arch)
			continue
		}
		places = append(places, place{al.line, phases, []string{al.arch}})
	}
	var parts []string
	for _, p := range places {
		parts = append(parts, linesOn(p.line, p.archs)+p.phases)
	}
	for _, s := range f.layouts {
		if s.Doc != "" {
			return strings.Join(parts, "; ") + ", " + s.Doc
		}
	}
	return strings.Join(parts, "; ")
}

func joinInts(xs []int64) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.FormatInt(x, 10))
	}
	if len(s) > 1 {
		return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
	}
	return strings.Join(s, "")
}

// somePhases reports whether the finding shows at only some of the
// phases somewhere.
func (f *finding) somePhases() bool {
	for _, p := range f.where {
		if len(p.hit) < len(p.all) {
			return true
		}
	}
	return false
}

// maxLine is the largest line size at which the finding shows.
func (f *finding) maxLine() (int64, string) {
	var line int64
	var arch string
	for al := range f.where {
		if al.line > line || al.line == line && al.arch < arch {
			line, arch = al.line, al.arch
		}
	}
	return line, arch
}

func (c *checker) reportFinding(f *finding) {
	line, arch := f.maxLine()
	s := f.layouts[arch]
	d := analysis.Diagnostic{Category: f.rule.ID, URL: f.rule.URL()}
	var element, stride int64 // a table's, as data
	at := func(member string) token.Pos {
		if f.pos.IsValid() {
			return f.pos
		}
		return c.memberPos(f.tn, member)
	}
	switch {
	case f.exposed:
		d.Pos = at(f.hot)
		d.Message = f.exposedMessage(line)
		d.SuggestedFixes = c.headPadFix(f, s, line)
	case f.rule == ShardStride:
		arr := s.Field(f.a)
		elem := arr.Size / max(arr.Len, 1)
		element, stride = elem, elem
		d.Pos = at(f.a)
		if r := f.objects; r != nil {
			element, stride = r.size, r.stride
			d.Message = fmt.Sprintf("%s objects are %d bytes, in the allocator's %d-byte size class: allocated one by one (in %s) they sit %d bytes apart, so the hot members of neighbours share lines (%s) and the CPUs writing them false-share; pad %s to %d bytes: %s",
				f.tn.Name(), r.size, r.stride, r.where, r.stride, f.whereText(), f.tn.Name(), roundUp(r.size, line), f.why)
			break
		}
		if padded := elementPadded(arr); padded && c.cleanBelow(f, line) {
			// The elements are padded, for a smaller line.
			d.Category, d.URL = ShortPadding.ID, ShortPadding.URL()
			d.Message = fmt.Sprintf("the padding in the elements of %s makes them %d bytes, too short for %s: neighbouring shards share lines there; pad each element to %d bytes or use golang.org/x/sys/cpu.CacheLinePad",
				f.a, elem, f.whereText(), roundUp(elem, line))
			d.SuggestedFixes = c.padElementFix(f, arr, elem, line)
			d.Message += " (" + ShortPadding.ID + ", " + f.tier.String() + ")"
			data := f.data(ShortPadding)
			data.Element, data.Stride = element, stride
			c.report(d, data)
			return
		}
		if elem < line {
			d.Message = fmt.Sprintf("elements of %s are %d bytes, so neighbouring shards share lines (%s) and the CPUs writing them false-share; pad each element to %d bytes: %s",
				f.a, elem, f.whereText(), roundUp(elem, line), f.why)
		} else {
			d.Message = fmt.Sprintf("the hot members of neighbouring elements of %s share a line (%s); pad each element so that they are a whole line apart: %s", f.a, f.whereText(), f.why)
		}
		d.SuggestedFixes = c.padElementFix(f, arr, elem, line)
	case f.rule == Neighbour:
		d.Pos = at(f.hot)
		var with []string
		for _, p := range f.partners {
			with = append(with, p.member)
		}
		var whys []string
		for _, p := range f.partners {
			if w := p.why.String(); !slices.Contains(whys, w) {
				whys = append(whys, w)
			}
		}
		if f.writer.Op != "" {
			whys = append([]string{f.writer.String() + " while"}, strings.Join(whys, ", "))
		}
		d.Message = fmt.Sprintf("%s shares a line with %s (%s), and %s: false sharing; put them on separate lines",
			f.hot, textfmt.JoinWords(with), f.whereText(), strings.Join(whys, " "))
		d.SuggestedFixes = c.insertPadFix(f, s, line)
	case f.rule == PhasePadding:
		d.Pos = at(f.b)
		var starts []string
		for al, p := range f.where {
			if al.arch == arch && al.line == line {
				starts = append(starts, joinInts(p.all))
			}
		}
		d.Message = fmt.Sprintf("the padding between %s and %s separates them only at some of the offsets where %s can start (%s bytes into a %d B line, by the Go allocator and linker): they share %s; pad so that they are a whole line apart",
			f.a, f.b, article(f.tn.Name()), strings.Join(starts, ""), line, f.whereText())
		d.SuggestedFixes = c.growPadFix(f, s, line)
	case f.rule == ShortPadding:
		d.Pos = at(f.b)
		d.Message = fmt.Sprintf("the padding between %s and %s is too short for %s: they share a line there; pad for %d bytes or use golang.org/x/sys/cpu.CacheLinePad",
			f.a, f.b, f.whereText(), line)
		d.SuggestedFixes = c.growPadFix(f, s, line)
	}
	d.Message += " (" + f.rule.ID + ", " + f.tier.String() + ")"
	data := f.data(f.rule)
	data.Element, data.Stride = element, stride
	c.report(d, data)
}

func roundUp(n, a int64) int64 { return (n + a - 1) / a * a }

// elementPadded reports whether an array's elements hold deliberate
// padding.
func elementPadded(arr *layout.Field) bool {
	if arr.Elem == nil {
		return false
	}
	return slices.ContainsFunc(arr.Elem.Fields, func(f layout.Field) bool { return isPadding(&f) })
}

// cleanBelow reports whether the finding is absent at some checked line
// size smaller than line: padding that works there was sized for it.
func (c *checker) cleanBelow(f *finding, line int64) bool {
	for _, lc := range c.allCases(f) {
		if lc.line < line && len(lc.hit) == 0 {
			return true
		}
	}
	return false
}

// memberPos returns the position of the declaration of a member's
// outermost member: a nested member a.b is reported at a, in the type
// whose layout the finding is about.
func (c *checker) memberPos(tn types.Object, member string) token.Pos {
	top, _, _ := strings.Cut(member, ".")
	top, _, _ = strings.Cut(top, "[")
	if v := c.hot.memberVars(tn.Type())[top]; v != nil {
		return v.Pos()
	}
	return tn.Pos()
}

func fmtList(xs []string) string { return "(" + strings.Join(xs, ", ") + ")" }
