// Package report runs everything mglayout knows on the machine in front of
// it, within a time budget, and writes the evidence a reviewer asks for:
// the host, the static layouts, checks and before/after verdicts, the
// interference distance, and the probe's measurements natively and
// emulated for the other line size. The JSON form is versioned; compare
// merges reports from several machines.
package report

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/layoutjson"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/costmodel"
	"github.com/mglayout/mglayout/probe/host"
	"github.com/mglayout/mglayout/probe/stats"
)

// Schema names the JSON format; it changes when a field changes meaning.
const Schema = "mglayout-report/4"

// Report is the whole report, and its JSON schema.
type Report struct {
	Schema string `json:"schema"`
	// Complete is false when the run was interrupted; Incomplete says
	// why, and the sections hold what was measured.
	Complete   bool      `json:"complete"`
	Incomplete string    `json:"incomplete,omitempty"`
	Started    time.Time `json:"started"`
	Seconds    float64   `json:"seconds"`
	Budget     float64   `json:"budget_seconds"`
	Host       Host      `json:"host"`
	Lines      []int64   `json:"lines"` // line sizes of the static analysis

	Layouts layoutjson.Document   `json:"layouts"`
	Checks  render.CheckDocument  `json:"checks"`
	Diffs   []render.DiffDocument `json:"diffs"`
	Sweep   *Sweep                `json:"sweep,omitempty"`
	// Clocks is the cost of fine and coarse reads of the realtime
	// clock: what the multigrain floor trades against.
	Clocks *probe.ClockResult `json:"clocks,omitempty"`
	// Kernel is the running kernel's pipe workloads, measured the way
	// the multigrain regression was, beside its nearest model.
	Kernel *probe.KernelResult `json:"kernel,omitempty"`
	Probes []*Probe            `json:"probes"`
	// Calibration is this host's cost model for the kinds of the diffs'
	// false pairs, from which each measured change of a false pair is
	// predicted; absent when no diff has one.
	Calibration *costmodel.Calibration `json:"calibration,omitempty"`
	// Verdicts pair each diff's static verdict per line size with what
	// the probes measured for the same two layouts; Conclusions say each
	// diff's in one line.
	Verdicts    []Verdict    `json:"verdicts"`
	Conclusions []Conclusion `json:"conclusions"`

	// diffs are the comparisons behind Diffs, for the cost model.
	diffs []*diff.Result
}

// Host is the machine and the kernel the report ran on.
type Host struct {
	Info   *host.Info `json:"info"`
	Kernel string     `json:"kernel"` // uname -r
	Line   int64      `json:"line"`   // the line size the probe runs natively at
}

// Stat summarises a sample: median and 95 % interval.
type Stat struct {
	Median  float64   `json:"median"`
	Lo      float64   `json:"lo"`
	Hi      float64   `json:"hi"`
	N       int       `json:"n"`
	Samples []float64 `json:"samples"`
}

// NewStat summarises samples: their median and 95 % interval.
func NewStat(samples []float64) Stat {
	s := stats.Summarize(samples)
	st := Stat{Median: s.Median, Lo: s.Lo, Hi: s.Hi, N: s.N, Samples: samples}
	// JSON has no infinity: an interval too wide to know is the sample's
	// range, which the caller reads with N < stats.MinForCI.
	if math.IsInf(st.Lo, 0) || math.IsInf(st.Hi, 0) || math.IsNaN(st.Median) {
		st.Lo, st.Hi = minMax(samples)
		if math.IsNaN(st.Median) {
			st.Median = 0
		}
	}
	return st
}

func minMax(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	return slices.Min(xs), slices.Max(xs)
}

// Sweep is the interference sweep.
type Sweep struct {
	Points []SweepPoint `json:"points"`
	Far    SweepPoint   `json:"far"`
	// Kind is what the sweep found, Distance the destructive-interference
	// distance in bytes when it found one (probe.Interference), and
	// Verdict the sentence every format prints.
	Kind     probe.InterferenceKind `json:"interference"`
	Distance int64                  `json:"interference_distance,omitempty"`
	Verdict  string                 `json:"interference_verdict"`
	Rounds   int                    `json:"rounds"`
}

// SweepPoint is one distance.
type SweepPoint struct {
	Distance int64 `json:"distance"`
	Writer   Stat  `json:"writer"`
	Reader   Stat  `json:"reader"`
}

// Probe is one experiment: variants, paths, and how they ran.
type Probe struct {
	Title       string         `json:"title"`
	Mode        string         `json:"mode"` // "native" or "emulated"
	Line        int64          `json:"line"` // the line size measured (the target's when emulated)
	HostLine    int64          `json:"host_line"`
	Stress      bool           `json:"stress"`
	Variants    []string       `json:"variants"`
	Cases       []ProbeCase    `json:"cases"`
	Comparisons []Comparison   `json:"comparisons"`
	Rounds      int            `json:"rounds"`
	Seconds     float64        `json:"run_seconds"`
	Skipped     string         `json:"skipped,omitempty"` // why the probe did not run
	Predicted   []PredictedRow `json:"predicted"`
}

// ProbeCase is one path in one variant, beside its writers or alone.
type ProbeCase struct {
	Variant string `json:"variant"`
	Path    string `json:"path"`
	Writers bool   `json:"writers"`
	CPUs    int    `json:"cpus"`
	Stat    Stat   `json:"ops_per_second"`
}

// Comparison is a path's change between two variants, or beside the
// writers against alone.
type Comparison struct {
	Path  string  `json:"path"`
	Old   string  `json:"old"`
	New   string  `json:"new"`
	Delta float64 `json:"delta"`
	// P is corrected for the family of Tests comparisons it was made
	// with (Holm); RawP is the test's own.
	P           float64 `json:"p"`
	RawP        float64 `json:"raw_p"`
	Tests       int     `json:"tests"`
	Significant bool    `json:"significant"`
	Text        string  `json:"text"` // "~" or "+12.34%"
	// N is the rounds of the smaller sample; Interval the 95 % interval
	// of Delta (stats.ChangeInterval), absent when the rounds are too
	// few for one.
	N        int         `json:"n"`
	Interval *[2]float64 `json:"interval,omitempty"`
	// MDE is the smallest change, as a fraction, that the comparison
	// would have found significant four times in five; null when its
	// samples are too few to find any.
	MDE *float64 `json:"mde"`
	// Probe names the experiment, in a verdict's measured changes.
	Probe string `json:"probe,omitempty"`
	// Predicted is, in a verdict's measured changes, what the static
	// diff says the probe should see (prediction), and PredictedChange
	// the cost model's figure where the change is one of false sharing;
	// Disagrees flags a measurement that contradicts it.
	Predicted       string   `json:"predicted,omitempty"`
	PredictedChange *float64 `json:"predicted_change,omitempty"`
	Disagrees       bool     `json:"disagrees,omitempty"`
}

func newComparison(path, old, new string, c stats.Comparison) Comparison {
	out := Comparison{Path: path, Old: old, New: new, Delta: c.Delta, P: c.P, RawP: c.RawP, Tests: c.Tests,
		Significant: c.Significant(), Text: c.DeltaString(), N: min(c.N1, c.N2)}
	if !math.IsNaN(c.Lo) && !math.IsNaN(c.Hi) {
		out.Interval = &[2]float64{c.Lo, c.Hi}
	}
	if !math.IsInf(c.MDE, 0) && !math.IsNaN(c.MDE) {
		out.MDE = &c.MDE
	}
	return out
}

// Evidence is a comparison's statistics in words: "p=0.001, Holm over 12
// tests", and for no significant change what it could have seen as well.
func (c Comparison) Evidence() string {
	s := fmt.Sprintf("p=%.3f", c.P)
	if c.Tests > 1 {
		s += fmt.Sprintf(", Holm over %d tests", c.Tests)
	}
	if !c.Significant {
		s += "; " + stats.MDEText(c.mde())
	}
	return s
}

// PredictedRow is what the static analysis says of a path in a variant at
// the probe's line size and phase.
type PredictedRow struct {
	Variant string   `json:"variant"`
	Path    string   `json:"path"`
	Lines   int      `json:"lines"`
	Shared  []string `json:"shared"`
}

// Verdict is one diff at one line size: the static verdict and the
// measured changes of the same two layouts.
type Verdict struct {
	Old      string       `json:"old"`
	New      string       `json:"new"`
	Line     int64        `json:"line"`
	Static   string       `json:"static"` // "worse", "better", "same"
	Measured []Comparison `json:"measured"`
}

// Scenario is what a report runs.
type Scenario struct {
	// Objects are laid out and checked.
	Objects []*sharing.Object
	// Diffs are pairs of objects to compare, old first.
	Diffs [][2]*sharing.Object
	// Probes are the experiments to run, natively and emulated.
	Probes []ProbeSpec
}

// ProbeSpec is an experiment of the scenario.
type ProbeSpec struct {
	Title    string
	Variants []probe.Variant
	Paths    []string // paths to measure
	Writers  []string // writers to run beside them; nil: all
	Stress   bool
}

// Options control a report.
type Options struct {
	Budget   time.Duration
	Lines    []int64 // line sizes of the static analysis
	Progress func(Progress)
	CPUs     []int
}

// Progress is where a report stands: the time spent of its budget, the
// measurement running, and where that stands.
type Progress struct {
	Elapsed, Budget time.Duration
	Step            string // "sweep", "clocks", "kernel", or a probe's title and mode
	probe.Progress
}

func (p Progress) String() string {
	return fmt.Sprintf("[%v of %v] %s: %s", p.Elapsed.Round(time.Second), p.Budget, p.Step, p.Progress)
}

// Run runs the scenario within the budget. Interrupting ctx stops it
// between runs; the report then holds what was measured and is marked
// incomplete.
func Run(ctx context.Context, sc Scenario, o Options) (*Report, error) {
	start := time.Now()
	r := &Report{Schema: Schema, Complete: true, Started: start.UTC().Truncate(time.Second),
		Budget: o.Budget.Seconds(), Lines: o.Lines, Probes: []*Probe{}, Verdicts: []Verdict{}, Conclusions: []Conclusion{}}
	info, err := host.Detect()
	if err != nil {
		return nil, err
	}
	r.Host = Host{Info: info, Kernel: kernelRelease(), Line: info.NativeLine()}

	if err := r.Static(sc, o.Lines); err != nil {
		return nil, err
	}
	// On one CPU no line can be shared between two, but the static part
	// stands, and the clock reads and the pipe workloads run on one.
	_, cpuErr := probe.UsableCPUs(o.CPUs)
	oneCPU := errors.Is(cpuErr, probe.ErrTooFewCPUs)
	if cpuErr != nil && !oneCPU {
		return nil, cpuErr
	}

	// The measurements share what is left of the budget, in proportion
	// to what each would take at the default settings.
	kinds := r.falseKinds()
	if oneCPU {
		// Listed, each saying why it did not run.
		for _, spec := range sc.Probes {
			for _, emulated := range []bool{false, true} {
				r.Probes = append(r.Probes, r.newProbe(spec, emulated, "it needs a second CPU, and one is usable"))
			}
		}
		sc.Probes, kinds = nil, nil
	}
	plan := newPlan(sc, len(kinds), o.Budget-time.Since(start))
	progress := func(step string) func(probe.Progress) {
		return func(p probe.Progress) {
			if o.Progress != nil {
				o.Progress(Progress{Elapsed: time.Since(start), Budget: o.Budget, Step: step, Progress: p})
			}
		}
	}
	if oneCPU {
		r.Complete = false
		r.Incomplete = "one CPU: " + cpuErr.Error() + "; the interference sweep and the probes need a second CPU, and are not here; the static verdicts, the clock reads and the pipe workloads are"
		if done, err := r.hostMeasurements(ctx, plan, o, progress); err != nil {
			return nil, err
		} else if !done {
			r.interrupted()
		}
		return r.finish(start), nil
	}

	sw, err := probe.Sweep(ctx, probe.SweepOptions{Max: 256, Step: 16, Far: 4096, Duration: plan.sweep, Count: plan.count, CPUs: o.CPUs,
		Progress: progress("sweep")})
	if err != nil {
		return nil, err
	}
	r.Sweep = newSweep(sw)
	if sw.Interrupted {
		r.interrupted()
		return r.finish(start), nil
	}

	if done, err := r.hostMeasurements(ctx, plan, o, progress); err != nil {
		return nil, err
	} else if !done {
		r.interrupted()
		return r.finish(start), nil
	}

	if len(kinds) > 0 {
		cal, err := costmodel.Measure(ctx, kinds, probe.Options{Duration: plan.sweep, Count: plan.count, CPUs: o.CPUs, HostLine: r.Host.Line, Progress: progress("calibration")})
		if ctx.Err() != nil {
			r.interrupted()
			return r.finish(start), nil
		}
		if err != nil {
			return nil, err
		}
		r.Calibration = cal
	}

	for i, spec := range sc.Probes {
		for _, emulated := range []bool{false, true} {
			if plan.dropped[i] {
				r.Probes = append(r.Probes, r.newProbe(spec, emulated, plan.droppedWhy()))
				continue
			}
			p, interrupted, err := r.runProbe(ctx, spec, emulated, plan, o.CPUs, progress)
			if err != nil {
				return nil, err
			}
			r.Probes = append(r.Probes, p)
			if interrupted {
				r.interrupted()
				return r.finish(start), nil
			}
		}
	}
	return r.finish(start), nil
}

// hostMeasurements measures the clock reads and the pipe workloads,
// which need one CPU; false when interrupted.
func (r *Report) hostMeasurements(ctx context.Context, plan *plan, o Options, progress func(string) func(probe.Progress)) (bool, error) {
	clocks, err := probe.Clocks(ctx, probe.ClockOptions{Duration: plan.sweep, Count: plan.count, CPUs: o.CPUs, Progress: progress("clocks")})
	if err != nil {
		return false, err
	}
	r.Clocks = clocks
	if clocks.Interrupted {
		return false, nil
	}
	kernel, err := probe.Kernel(ctx, probe.KernelOptions{Duration: plan.probe, Count: plan.count, CPUs: o.CPUs, Progress: progress("kernel")})
	if err != nil {
		return false, err
	}
	r.Kernel = kernel
	return !kernel.Interrupted, nil
}

func (r *Report) interrupted() {
	r.Complete = false
	r.Incomplete = "interrupted: the sections hold the rounds completed before the interruption"
}

// finish judges what was measured, whatever it is (the static verdicts
// need no measurement), and notes the time taken.
func (r *Report) finish(start time.Time) *Report {
	r.Judge()
	r.Seconds = math.Round(time.Since(start).Seconds()*10) / 10
	return r
}

// nativeLine is the line size the probe measures at without emulation:
// the smallest coherency line the host reports.

// otherLine is the line size to emulate: 128 on a 64-byte host, 64 on a
// larger one.
func otherLine(native int64) int64 {
	if native == 64 {
		return 128
	}
	return 64
}

// Static fills the layouts, checks and diffs of a scenario, at the line
// sizes: the report's static half, which needs no measurement.
func (r *Report) Static(sc Scenario, lines []int64) error {
	r.Layouts = layoutjson.New(sc.Objects, lines)
	a, err := sharing.Analyze(sc.Objects, lines)
	if err != nil {
		return err
	}
	r.Checks = render.NewCheckDocument(a)
	for _, pair := range sc.Diffs {
		var sides [2]*sharing.ObjectAnalysis
		for i, o := range pair {
			a, err := sharing.Analyze([]*sharing.Object{o}, lines)
			if err != nil {
				return err
			}
			sides[i] = &a.Objects[0]
		}
		d, err := diff.Compare(sides[0], sides[1], lines)
		if err != nil {
			return err
		}
		r.Diffs = append(r.Diffs, render.NewDiffDocument(d))
		r.diffs = append(r.diffs, d)
	}
	return nil
}

func newSweep(sw *probe.SweepResult) *Sweep {
	s := &Sweep{Rounds: sw.Rounds, Far: SweepPoint{Distance: sw.Far.Distance, Writer: NewStat(sw.Far.Writer), Reader: NewStat(sw.Far.Reader)}}
	for _, p := range sw.Points {
		s.Points = append(s.Points, SweepPoint{Distance: p.Distance, Writer: NewStat(p.Writer), Reader: NewStat(p.Reader)})
	}
	in := sw.Interference()
	var largest int64
	if len(sw.Points) > 0 {
		largest = sw.Points[len(sw.Points)-1].Distance
	}
	s.Kind, s.Distance, s.Verdict = in.Kind, in.Distance, in.Verdict(sw.Rounds, largest)
	return s
}

// falseKinds are the operation kinds of the diffs' false pairs at the
// line sizes the probes measure: what the calibration must measure.
func (r *Report) falseKinds() []costmodel.Kinds {
	var out []costmodel.Kinds
	for _, line := range []int64{r.Host.Line, otherLine(r.Host.Line)} {
		for _, k := range costmodel.FalseKinds(r.diffs, line) {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// newProbe is the record of one experiment, natively or emulated,
// before it runs; why, where it is not run.
func (r *Report) newProbe(spec ProbeSpec, emulated bool, why string) *Probe {
	p := &Probe{Title: spec.Title, Mode: "native", Line: r.Host.Line, HostLine: r.Host.Line, Stress: spec.Stress, Cases: []ProbeCase{}, Comparisons: []Comparison{}, Predicted: []PredictedRow{}, Skipped: why}
	if emulated {
		p.Mode, p.Line = "emulated", otherLine(r.Host.Line)
	}
	for _, v := range spec.Variants {
		p.Variants = append(p.Variants, v.Name)
	}
	return p
}

// runProbe runs one experiment natively or emulated.
func (r *Report) runProbe(ctx context.Context, spec ProbeSpec, emulated bool, plan *plan, cpus []int, progress func(string) func(probe.Progress)) (*Probe, bool, error) {
	native := r.Host.Line
	p := r.newProbe(spec, emulated, "")
	o := probe.Options{Line: native, Phase: -1, Duration: plan.probe, Count: plan.count, CPUs: cpus, Stress: spec.Stress,
		Paths: spec.Paths, Writers: spec.Writers, HostLine: native}
	if emulated {
		o.Line, o.Emulate, o.Spacing = p.Line, p.Line, 2*native
	}
	p.Predicted = Predict(spec.Variants, o)
	res, err := probe.Run(ctx, spec.Variants, withProgress(o, progress(spec.Title+", "+p.Mode)))
	if err != nil {
		// A probe that cannot run here (too few CPUs, a line that does
		// not fit the emulation) is a fact of this host, not a failure
		// of the report.
		p.Skipped = err.Error()
		if errors.Is(err, probe.ErrWritersCPUs) {
			p.Skipped += " (run the report with more CPUs, -cpus)"
		}
		return p, false, nil
	}
	p.Rounds, p.Seconds = res.Rounds, o.Duration.Seconds()
	for _, c := range res.Cases {
		p.Cases = append(p.Cases, ProbeCase{Variant: c.Variant, Path: c.Path.Name, Writers: !c.Alone, CPUs: c.CPUs, Stat: NewStat(c.Samples)})
	}
	p.Comparisons = Comparisons(res)
	return p, res.Interrupted, nil
}

func withProgress(o probe.Options, f func(probe.Progress)) probe.Options {
	o.Progress = f
	return o
}

// Comparisons compares, per path, each variant beside its writers against
// alone, and every later variant against the first.
func Comparisons(res *probe.Result) []Comparison {
	var out []Comparison
	for _, c := range res.Comparisons() {
		out = append(out, newComparison(c.Path, c.Old, c.New, c.Comparison))
	}
	return out
}

// predict runs the sharing analysis of every variant at the probe's line
// size and first phase.

// Predict is the probe's prediction of each path, as the report keeps
// it.
func Predict(variants []probe.Variant, o probe.Options) []PredictedRow {
	ps, err := probe.Predict(variants, o)
	if err != nil {
		return []PredictedRow{}
	}
	out := []PredictedRow{}
	for _, p := range ps {
		out = append(out, PredictedRow{Variant: p.Variant, Path: p.Path, Lines: p.Lines, Shared: p.Shared})
	}
	return out
}

// Judge pairs every diff's static verdict per line size with the
// measured comparison of the same two variants, native or emulated at
// that line size.
func (r *Report) Judge() {
	for di, d := range r.Diffs {
		for _, line := range r.Lines {
			// The gate's verdict at this line size (diff.GateRule).
			v := Verdict{Old: d.Old, New: d.New, Line: line, Static: "same", Measured: []Comparison{}}
			switch {
			case slices.Contains(d.WorseAt, line):
				v.Static = "worse"
			case slices.Contains(d.BetterAt, line):
				v.Static = "better"
			}
			for _, p := range r.Probes {
				if p.Line != line {
					continue
				}
				var changes []costmodel.PathChange // the cost model's, once per probe
				for _, c := range p.Comparisons {
					if c.Old == d.Old && c.New == d.New {
						if changes == nil && r.Calibration != nil {
							changes = r.Calibration.DiffChanges(r.diffs[di], line, p.Stress)
						}
						c.Probe = p.Title + ", " + p.Mode
						var measurable bool
						c.Predicted, measurable = prediction(d, line, c.Path, p.Stress)
						c.Disagrees = disagrees(c, measurable)
						if change, ok := modelled(changes, d, line, c.Path); ok {
							c.PredictedChange = &change
							c.Predicted += fmt.Sprintf("; the cost model: %+.1f%%", 100*change)
							c.Disagrees = !costmodel.Agrees(change, c.stats())
						}
						v.Measured = append(v.Measured, c)
					}
				}
			}
			r.Verdicts = append(r.Verdicts, v)
		}
	}
	r.conclude()
}

// modelled is, of the cost model's changes of a diff at a line size, the
// path's at the first phase (where the probe places the objects), where
// the change is one of false sharing and the calibration prices it.
func modelled(changes []costmodel.PathChange, d render.DiffDocument, line int64, path string) (float64, bool) {
	var at *costmodel.PathChange
	for i, pc := range changes {
		if pc.Path == path && (at == nil || pc.Phase < at.Phase) {
			at = &changes[i]
		}
	}
	if at == nil || len(at.Uncalibrated) > 0 || !falseLinesDiffer(d, line, at.Phase, at.NewPhase, path) {
		return 0, false
	}
	return at.Change, true
}

// falseLinesDiffer reports whether a diff's row of a path changes its
// falsely shared lines: the change the cost model prices.
func falseLinesDiffer(d render.DiffDocument, line, phase, newPhase int64, path string) bool {
	for _, row := range d.Rows {
		if row.Path == path && row.Line == line && row.Phase == phase && row.NewPhase == newPhase {
			return row.Old.FalseLines != row.New.FalseLines
		}
	}
	return false
}

// stats is the comparison as the statistics package has it, for the
// cost model's test of agreement.
func (c Comparison) stats() stats.Comparison {
	return stats.Comparison{Delta: c.Delta, MDE: c.mde()}
}

// mde is the smallest change the comparison could have seen, +Inf where
// its samples were too few for any (JSON's null).
func (c Comparison) mde() float64 {
	if c.MDE == nil {
		return math.Inf(1)
	}
	return *c.MDE
}

// prediction is what the static diff says a probe of the two layouts
// should see for one path at one line size, at the first phase the
// objects can start at (where the probe places them): a change where the path's falsely shared
// lines differ, or, with the writers unthrottled, where its lines do;
// none otherwise, since an extra line that a rate-limited writer (the
// 250/s tick) invalidates costs the reader one miss per write.
func prediction(d render.DiffDocument, line int64, path string, stress bool) (string, bool) {
	var at *render.DiffRow
	for i, row := range d.Rows {
		if row.Path == path && row.Line == line && (at == nil || row.Phase < at.Phase) {
			at = &d.Rows[i]
		}
	}
	if at == nil {
		return "", false
	}
	o, n := at.Old, at.New
	switch {
	case o.FalseLines != n.FalseLines:
		return fmt.Sprintf("falsely shared lines %d → %d: a change", o.FalseLines, n.FalseLines), true
	case len(o.Lines) == len(n.Lines) && o.Blocks128 == n.Blocks128:
		return "the same lines and blocks: no change", false
	case stress:
		return fmt.Sprintf("lines %d → %d, 128-byte blocks %d → %d, beside unthrottled writers: a change", len(o.Lines), len(n.Lines), o.Blocks128, n.Blocks128), true
	}
	return fmt.Sprintf("lines %d → %d, 128-byte blocks %d → %d, none shared falsely; at the writers' rates each extra line costs a miss per write: no measurable change", len(o.Lines), len(n.Lines), o.Blocks128, n.Blocks128), false
}

// disagrees reports whether a measurement contradicts the prediction: a
// significant change where none was predicted, or none where one was,
// from samples that could have seen a change of a fifth.
func disagrees(c Comparison, measurable bool) bool {
	if c.Predicted == "" {
		return false
	}
	if !measurable {
		return c.Significant
	}
	return !c.Significant && c.MDE != nil && *c.MDE <= 0.2
}
