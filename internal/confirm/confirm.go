// Package confirm replays an analyzer finding on this machine: from the
// finding's own evidence (the hot member, a partner, what each side does
// to them) it builds a probe experiment over the type's layout on this
// host's GOARCH, as it is and with the members separated as suggest
// orders or pads them, and measures the reader beside the writer in both,
// interleaved. A finding of a table (FS1) is replayed as two writers of
// neighbouring elements, as laid out and padded apart.
//
// What it measures is what the layout costs here if the two sides run at
// once; that they do run at once stays the analyzer's evidence, and a
// result keeps the two apart.
package confirm

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/falsesharing"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/layout/suggest"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/costmodel"
	"github.com/mglayout/mglayout/probe/stats"
)

// Experiment is one finding made into a probe experiment: the writer and
// the reader, the type's layout as it is and with the fix, the line size
// and phases it runs at, and where the two members lie from each other in
// both layouts, from which the cost model predicts the change.
type Experiment struct {
	Finding *falsesharing.Finding
	// Where is where the finding is reported, file:line:column.
	Where          string
	Writer, Reader *access.Path
	AsIs, Fixed    *sharing.Object
	// Line is the line size the experiment replays: the host's, or a
	// larger one the finding holds at, emulated (Emulated) on the host's
	// HostLine-byte lines.
	Line, HostLine int64
	// Phase is the phase both layouts run at, -1 where the fixed layout
	// cannot start at the as-is one's and each runs at its first
	// reachable phase; AsIsPhase and FixedPhase are the phases that gives.
	Phase, AsIsPhase, FixedPhase int64
	// From and To are where the writer's word lies from the reader's on
	// the host's lines, as is and fixed.
	From, To costmodel.Relation
	// Stride is, for a table, the padded element the fix gives it; 0 for
	// a pair of members.
	Stride int64
	// FixedMoved is set when the fix, placed as the type is, could not
	// start at Phase, and is replayed there all the same.
	FixedMoved bool
}

// Emulated reports whether the experiment replays a larger line than the
// host's, under the probe's emulation.
func (e *Experiment) Emulated() bool { return e.Line != e.HostLine }

// Kinds are the operation kinds of the experiment's two sides.
func (e *Experiment) Kinds() costmodel.Kinds {
	return costmodel.Kinds{Writer: e.Writer.Accesses[0].Op, Reader: e.Reader.Accesses[0].Op}
}

// Plan makes a finding into an experiment on obj, the layout of its type
// on this host's GOARCH as the resolver gives it, for a host of
// hostLine-byte lines. It replays the smallest line size at which the
// members share a line at some phase: the host's natively, or with
// emulate a larger one the finding holds at (128-byte lines on arm64)
// under the probe's emulation. Without emulate, a finding of larger lines
// only is replayed as the type lies on this host's lines, at its first
// phase, the two members on lines of their own. It says why when the
// finding cannot be replayed: a finding of no pair (a table, a pad), a
// side the probe cannot express, members this host's GOARCH lays out
// apart at every line size, a fix that suggest cannot make.
func Plan(f *falsesharing.Finding, obj *sharing.Object, hostLine int64, emulate bool) (*Experiment, error) {
	if len(f.Partners) == 0 {
		return planTable(f, obj, hostLine)
	}
	partner := f.Partners[0]
	// A declared finding (padding, a directive) names no operation: its
	// hot member is the one written, atomically.
	writerDoes := "updates"
	if len(f.Writers) > 0 {
		writerDoes = f.Writers[0].Does
	}
	writer, err := path("writer", writerDoes, f.Member)
	if err != nil {
		return nil, err
	}
	readerDoes := "reads"
	for _, u := range f.Users {
		if u.Member == partner {
			readerDoes = u.Does
			break
		}
	}
	reader, err := path("reader", readerDoes, partner)
	if err != nil {
		return nil, err
	}
	// The lines: the host's, and every one the finding holds at.
	lines := []int64{hostLine}
	for _, h := range f.Holds {
		if !slices.Contains(lines, h.Line) {
			lines = append(lines, h.Line)
		}
	}
	slices.Sort(lines)
	asIs := &sharing.Object{Layout: obj.Layout, Paths: []*access.Path{writer, reader}, Placement: obj.Placement}
	a, err := sharing.Analyze([]*sharing.Object{asIs}, lines)
	if err != nil {
		return nil, fmt.Errorf("the layout on this host lacks the finding's members: %v", err)
	}
	e := &Experiment{Finding: f, Writer: writer, Reader: reader, AsIs: asIs, Line: hostLine, HostLine: hostLine}
	i := slices.IndexFunc(a.Objects[0].Cases, func(c sharing.Case) bool {
		return (c.Line == hostLine || emulate && c.Line > hostLine) && len(c.FalsePairs()) > 0
	})
	switch {
	case i >= 0:
		e.Line, e.Phase = a.Objects[0].Cases[i].Line, a.Objects[0].Cases[i].Phase
	case emulate || !slices.ContainsFunc(a.Objects[0].Cases, func(c sharing.Case) bool { return len(c.FalsePairs()) > 0 }):
		// The finding's GOARCH lays the type out otherwise.
		return nil, fmt.Errorf("on this host's GOARCH, %s and %s share no line at any phase of %s bytes", f.Member, partner, joinLines(lines))
	default:
		phases, _ := asIs.Phases(hostLine)
		e.Phase = phases[0]
	}
	// The fix is the padding for every line size the finding holds at,
	// and this host's.
	r, err := suggest.Suggest(asIs, suggest.Options{Lines: lines})
	if err != nil {
		return nil, err
	}
	if r.Suggested == asIs.Layout {
		return nil, fmt.Errorf("suggest finds no order or padding that separates %s and %s", f.Member, partner)
	}
	e.Fixed = asIs.Relaid(r.Suggested)
	e.placeFixed()
	return e, nil
}

// placeFixed decides the phases both layouts run at, and where the two
// sides' words lie from each other in each.
func (e *Experiment) placeFixed() {
	if phases, _ := e.Fixed.Phases(e.Line); !slices.Contains(phases, e.Phase) && e.Phase%e.Fixed.Layout.Align == 0 {
		// The fix would start elsewhere (another size class): replayed
		// where the type starts, the two layouts compare alone.
		e.Fixed, e.FixedMoved = &sharing.Object{Layout: e.Fixed.Layout, Paths: e.Fixed.Paths}, true
	}
	e.AsIsPhase, e.FixedPhase = e.Phase, e.Phase
	if phases, _ := e.Fixed.Phases(e.Line); !slices.Contains(phases, e.Phase) {
		// One phase serves both layouts in a probe run: where the fix
		// cannot start where the type does, each starts at its first.
		asIsPhases, _ := e.AsIs.Phases(e.Line)
		e.Phase, e.AsIsPhase, e.FixedPhase = -1, asIsPhases[0], phases[0]
	}
	e.From, e.To = e.relation(e.AsIs, e.AsIsPhase), e.relation(e.Fixed, e.FixedPhase)
}

// planTable makes a finding of a table (FS1: CPUs writing neighbouring
// elements) into an experiment: two workers doing the finding's write to
// elements 0 and 1, in the type's layout on this host at a phase where
// the two share a host line, and in a table of two elements padded to the
// largest line the finding holds at, which runs at the same phase.
func planTable(f *falsesharing.Finding, obj *sharing.Object, hostLine int64) (*Experiment, error) {
	// A table's finding names those that write its elements as users.
	sides := append(f.Writers[:len(f.Writers):len(f.Writers)], f.Users...)
	if len(sides) == 0 {
		return nil, fmt.Errorf("a finding of no pair of members (%s): nothing two workers can replay", f.Rule.Name)
	}
	first, second := f.Member+"[0]", f.Member+"[1]"
	elem, align, start, layoutOf := int64(0), int64(8), int64(0), obj.Layout
	switch field := obj.Layout.Field(f.Member); {
	case field != nil && field.Kind == layout.KindArray && field.Len >= 2:
		elem, align, start = field.Size/field.Len, field.Align, field.Offset
	case f.Element > 0 && f.Stride >= f.Element:
		// The elements lie elsewhere (a slice's backing array, objects
		// allocated one by one): two of them, Stride bytes apart.
		first, second, elem = "element0", "element1", f.Element
		layoutOf = twoElements(obj.Layout, 0, f.Element, f.Stride, align)
	default:
		return nil, fmt.Errorf("a finding of no pair of members and no table of elements to lay out (%s): nothing two workers can replay", f.Rule.Name)
	}
	writer, err := path("writer", sides[0].Does, first)
	if err != nil {
		return nil, err
	}
	neighbour, err := path("reader", sides[0].Does, second)
	if err != nil {
		return nil, err
	}
	asIs := &sharing.Object{Layout: layoutOf, Paths: []*access.Path{writer, neighbour}, Placement: obj.Placement}
	if layoutOf != obj.Layout {
		asIs.Placement = nil
	}
	a, err := sharing.Analyze([]*sharing.Object{asIs}, []int64{hostLine})
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(a.Objects[0].Cases, func(c sharing.Case) bool { return len(c.FalsePairs()) > 0 })
	if i < 0 {
		return nil, fmt.Errorf("on this host's GOARCH, elements 0 and 1 of %s share no %d-byte line at any phase", f.Member, hostLine)
	}
	largest := hostLine
	for _, h := range f.Holds {
		largest = max(largest, h.Line)
	}
	// The fix: two elements of the table's element size where the table
	// starts, the second on the line after the first one ends at the
	// phase replayed, whatever the largest line; each side doing the same
	// to its own.
	phase := a.Objects[0].Cases[i].Phase
	first0 := (phase + start) % largest
	stride := (first0+elem+largest-1)/largest*largest - first0
	stride = (stride + align - 1) / align * align
	padded := twoElements(obj.Layout, start, elem, stride, align)
	var fixedPaths []*access.Path
	for i, p := range []*access.Path{writer, neighbour} {
		fp, _ := path(p.Name, sides[0].Does, fmt.Sprintf("element%d", i))
		fixedPaths = append(fixedPaths, fp)
	}
	e := &Experiment{Finding: f, Writer: writer, Reader: neighbour, AsIs: asIs, Line: hostLine, HostLine: hostLine, Phase: phase,
		// Padded alone, the two elements start where the table does.
		Fixed:  &sharing.Object{Layout: padded, Paths: fixedPaths},
		Stride: stride}
	e.placeFixed()
	if e.To == costmodel.SameLine {
		return nil, fmt.Errorf("elements 0 and 1 of %s padded to %d bytes still share a line at phase %d", f.Member, stride, e.FixedPhase)
	}
	return e, nil
}

// twoElements is the layout of two elements of a table of s, each of
// elem bytes, the first start bytes into the object, the second stride
// bytes on.
func twoElements(s *layout.Struct, start, elem, stride, align int64) *layout.Struct {
	out := &layout.Struct{Name: s.Name, Source: s.Source, Arch: s.Arch, Size: start + stride + elem, Align: align, Decl: s.Decl}
	for i := range int64(2) {
		name := fmt.Sprintf("element%d", i)
		out.Fields = append(out.Fields, layout.Field{Path: name, Name: name, Type: fmt.Sprintf("[%d]byte", elem), Offset: start + i*stride, Size: elem, Align: align, Kind: layout.KindScalar, Parent: -1})
	}
	return out
}

// joinLines spells line sizes as "64 or 128".
func joinLines(lines []int64) string {
	var s []string
	for _, l := range lines {
		s = append(s, strconv.FormatInt(l, 10))
	}
	return strings.Join(s, " or ")
}

// relation is where the writer's member lies from the reader's in one of
// the experiment's layouts as the probe places it, the object starting
// phase bytes into a line at the start of a page (RelationOnLines).
func (e *Experiment) relation(o *sharing.Object, phase int64) costmodel.Relation {
	w, r := span(o, e.Writer.Name), span(o, e.Reader.Name)
	return costmodel.RelationOnLines(phase+w.Offset, phase+w.End, phase+r.Offset, phase+r.End, e.Line, e.HostLine)
}

// span is the bytes that one side of an object, by name, touches.
func span(o *sharing.Object, name string) access.Touch {
	i := slices.IndexFunc(o.Paths, func(p *access.Path) bool { return p.Name == name })
	ts, err := access.Resolve(o.Paths[i], o.Layout)
	if err != nil || len(ts) == 0 {
		panic(fmt.Sprintf("confirm: %s in %s: %v", o.Paths[i], o.Layout.Name, err))
	}
	return ts[0]
}

// path is one side of a finding as an access path on one CPU, running
// as fast as it can: an update is an atomic add, a store a plain store
// (a lock's write side updates its word), a read a load.
func path(name, does, member string) (*access.Path, error) {
	op, ok := map[string]access.Op{"updates": access.Add, "stores": access.Write, "reads": access.Read}[does]
	if !ok {
		return nil, fmt.Errorf("the probe cannot replay a side that %s %s", does, member)
	}
	return &access.Path{Name: name, CPUs: 1, Rate: access.Hot, Accesses: []access.Access{{Op: op, Member: member}}}, nil
}

// Outcome is what an experiment measured: the reader beside the writer
// with the fix against without it, the comparison corrected over every
// finding of the run (Holm).
type Outcome struct {
	*Experiment
	Comparison stats.Comparison
	// Measured is set when the fix's effect is significant and speeds
	// the reader up.
	Measured bool
	// Interrupted is set when the run stopped before its rounds were
	// done; the rounds completed are kept.
	Interrupted bool
	// Prediction is the cost model's prediction of the change, nil
	// where there is none: Uncalibrated then says why.
	Prediction   *Prediction
	Uncalibrated string
}

// Prediction is the cost model's prediction of what the fix changes,
// and whether the measurement of the reader agrees with it (Agrees).
type Prediction struct {
	costmodel.Change
	Agrees bool
}

// Result names an outcome: "measured" or "not confirmed".
func (o Outcome) Result() string {
	if o.Measured {
		return "measured"
	}
	return "not confirmed"
}

// RunsPerRound is how many runs of Options.Duration one round of an
// experiment takes: each layout, the reader beside the writer and alone.
const RunsPerRound = 4

// Run measures the experiments one after another, each as and without
// its fix interleaved, and corrects the comparisons as one family; with a
// calibration, each outcome carries its prediction.
func Run(ctx context.Context, exps []*Experiment, o probe.Options, cal *costmodel.Calibration) ([]Outcome, error) {
	var out []Outcome
	for _, e := range exps {
		opt := o
		opt.Line, opt.HostLine, opt.Phase, opt.Emulate = e.Line, e.HostLine, e.Phase, 0
		if e.Emulated() {
			if err := opt.EmulateLine(e.Line, 0); err != nil {
				return out, err
			}
		}
		opt.Paths, opt.Writers = []string{e.Reader.Name}, []string{e.Writer.Name}
		variants := []probe.Variant{{Name: "as is", Objects: []*sharing.Object{e.AsIs}}, {Name: "fixed", Objects: []*sharing.Object{e.Fixed}}}
		res, err := probe.Run(ctx, variants, opt)
		if err != nil {
			return out, fmt.Errorf("%s.%s: %v", e.Finding.Object, e.Finding.Member, err)
		}
		c := probe.ComparisonOf(res.Comparisons(), e.Reader.Name, "as is", "fixed")
		if c == nil {
			if res.Interrupted {
				break
			}
			return out, fmt.Errorf("%s.%s: the run compared nothing", e.Finding.Object, e.Finding.Member)
		}
		out = append(out, Outcome{Experiment: e, Comparison: c.Comparison, Interrupted: res.Interrupted})
		if res.Interrupted {
			break
		}
	}
	// One family of the run's findings: each comparison counts again
	// from its own p-value (an experiment alone is a family of one).
	family := make([]stats.Comparison, len(out))
	for i := range out {
		family[i] = out[i].Comparison
		family[i].P, family[i].Tests = family[i].RawP, 1
	}
	stats.Holm(family)
	for i := range out {
		out[i].Comparison = family[i]
		out[i].Measured = family[i].Significant() && family[i].Delta > 0
		out[i].Prediction, out[i].Uncalibrated = predict(cal, out[i].Experiment, family[i])
	}
	return out, nil
}

// measuredSide names the side measured: the reader beside the writer,
// or in a table the second writer beside the first.
func (e *Experiment) measuredSide() string {
	if e.Stride > 0 {
		return "the writer of element 1 beside that of element 0"
	}
	return "the reader beside the writer"
}

// Describe says what a finding's experiment replays, in a line.
func (e *Experiment) Describe() string {
	at := fmt.Sprintf("%d B phase %d", e.Line, e.Phase)
	if e.Phase < 0 {
		at = fmt.Sprintf("%d B phases %d and %d", e.Line, e.AsIsPhase, e.FixedPhase)
	}
	if e.Emulated() {
		at += fmt.Sprintf(" (emulated on %d-byte lines)", e.HostLine)
	}
	if e.FixedMoved {
		at += " (the fix too, though its size class would start it elsewhere)"
	}
	if e.Stride > 0 {
		return fmt.Sprintf("%s.%s, elements 0 and 1, at %s: two writers that %s; fixed: the second %d bytes after the first",
			e.Finding.Object, e.Finding.Member, at, e.Writer.Accesses[0].Op, e.Stride)
	}
	return fmt.Sprintf("%s.%s beside %s at %s: the writer %s, the reader %s; fixed: %s",
		e.Finding.Object, e.Finding.Member, e.Finding.Partners[0], at,
		e.Writer.Accesses[0].Op, e.Reader.Accesses[0].Op, fixText(e))
}

// fixText says where the fix puts the two members.
func fixText(e *Experiment) string {
	var parts []string
	for _, m := range []string{e.Finding.Member, e.Finding.Partners[0]} {
		old, new := e.AsIs.Layout.Field(m), e.Fixed.Layout.Field(m)
		if old == nil || new == nil {
			return "padded apart"
		}
		parts = append(parts, fmt.Sprintf("%s %d→%d", m, old.Offset, new.Offset))
	}
	return fmt.Sprintf("%s, %d bytes in all", strings.Join(parts, ", "), e.Fixed.Layout.Size)
}
