// Package confirm replays an analyzer finding on this machine: from the
// finding's own evidence (the hot member, a partner, what each side does
// to them) it builds a probe experiment over the type's layout on this
// host's GOARCH, as it is and with the members separated as suggest
// orders or pads them, and measures the reader beside the writer in both, interleaved.
//
// What it measures is what the layout costs here if the two sides run at
// once; that they do run at once stays the analyzer's evidence, and a
// result keeps the two apart.
package confirm

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/falsesharing"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/layout/suggest"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/stats"
)

// Experiment is one finding made into a probe experiment: the writer and
// the reader, the type's layout as it is and with the fix, and the phase
// the finding holds at.
type Experiment struct {
	Finding *falsesharing.Finding
	// Where is where the finding is reported, file:line:column.
	Where          string
	Writer, Reader *access.Path
	AsIs, Fixed    *sharing.Object
	Line, Phase    int64
	// Apart is set when the members share no line of this host's size at
	// any phase (a finding of larger lines): the experiment then measures
	// what the layout costs on this host, where the fix should change
	// nothing.
	Apart bool
}

// Plan makes a finding into an experiment on obj, the layout of its type
// on this host's GOARCH as the resolver gives it, at the host's line
// size. It says why when the finding cannot be replayed: a finding of no
// pair (a table, a pad), a side the probe cannot express, a layout at
// whose phases the finding does not hold, a fix that suggest cannot make.
func Plan(f *falsesharing.Finding, obj *sharing.Object, line int64) (*Experiment, error) {
	if len(f.Partners) == 0 {
		return nil, fmt.Errorf("a finding of no pair of members (%s): nothing two workers can replay", f.Rule.Name)
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
	asIs := &sharing.Object{Layout: obj.Layout, Paths: []*access.Path{writer, reader}, Placement: obj.Placement}
	a, err := sharing.Analyze([]*sharing.Object{asIs}, []int64{line})
	if err != nil {
		return nil, fmt.Errorf("the layout on this host lacks the finding's members: %v", err)
	}
	phase, apart := int64(-1), true
	for _, c := range a.Objects[0].Cases {
		if len(c.FalsePairs()) > 0 {
			phase, apart = c.Phase, false
			break
		}
	}
	if apart && len(a.Objects[0].Cases) > 0 {
		phase = a.Objects[0].Cases[0].Phase
	}
	// The fix is the padding for every line size the finding holds at,
	// and this host's.
	lines := []int64{line}
	for _, h := range f.Holds {
		if !slices.Contains(lines, h.Line) {
			lines = append(lines, h.Line)
		}
	}
	slices.Sort(lines)
	r, err := suggest.Suggest(asIs, suggest.Options{Lines: lines})
	if err != nil {
		return nil, err
	}
	if r.Suggested == asIs.Layout {
		return nil, fmt.Errorf("suggest finds no order or padding that separates %s and %s", f.Member, partner)
	}
	fixed := asIs.Relaid(r.Suggested)
	return &Experiment{Finding: f, Writer: writer, Reader: reader, AsIs: asIs, Fixed: fixed, Line: line, Phase: phase, Apart: apart}, nil
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
	// Prediction is the calibrated static prediction of the change; nil
	// when no calibration was made.
	Prediction *Prediction
}

// Prediction is a calibrated prediction of an outcome's change, and
// whether the measurement agrees with it (Agrees).
type Prediction struct {
	Change float64
	Agrees bool
}

// Result names an outcome: "measured" or "not confirmed".
func (o Outcome) Result() string {
	if o.Measured {
		return "measured"
	}
	return "not confirmed"
}

// Run measures the experiments one after another, each as and without
// its fix interleaved, and corrects the comparisons as one family; with a
// calibration, each outcome carries its prediction.
func Run(ctx context.Context, exps []*Experiment, o probe.Options, cal *Calibration) ([]Outcome, error) {
	var out []Outcome
	for _, e := range exps {
		opt := o
		opt.Line, opt.HostLine, opt.Phase = e.Line, e.Line, e.Phase
		opt.Paths, opt.Writers = []string{e.Reader.Name}, []string{e.Writer.Name}
		variants := []probe.Variant{{Name: "as is", Objects: []*sharing.Object{e.AsIs}}, {Name: "fixed", Objects: []*sharing.Object{e.Fixed}}}
		if phases, _ := e.Fixed.Phases(e.Line); !slices.Contains(phases, e.Phase) {
			opt.Phase = -1
		}
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
		if cal != nil {
			p := cal.Predict(out[i].Experiment)
			out[i].Prediction = &Prediction{Change: p, Agrees: Agrees(p, family[i])}
		}
	}
	return out, nil
}

// Describe says what a finding's experiment replays, in a line.
func (e *Experiment) Describe() string {
	return fmt.Sprintf("%s.%s beside %s at %d B phase %d: the writer %s, the reader %s; fixed: %s",
		e.Finding.Object, e.Finding.Member, e.Finding.Partners[0], e.Line, e.Phase,
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
