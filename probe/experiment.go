package probe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Variant is one layout under test: its objects, each with the paths that
// touch it. Paths with the same name in several objects are one path.
type Variant struct {
	Name    string
	Objects []*sharing.Object
}

// Options control an experiment.
type Options struct {
	// Line is the line size that phases refer to: the emulated target's
	// when emulating, else the host's.
	Line int64 `json:"line"`
	// Phase places every object this many bytes past a line boundary; it
	// must be reachable for each object. -1 takes each object's first
	// reachable phase.
	Phase int64 `json:"phase"`
	// Emulate is the target line size to emulate on a host whose lines
	// are HostLine bytes, with emulated lines Spacing bytes apart; 0 runs
	// natively.
	Emulate  int64         `json:"emulate,omitempty"`
	HostLine int64         `json:"host_line"`
	Spacing  int64         `json:"spacing,omitempty"`
	Duration time.Duration `json:"duration_ns"` // of one run
	Count    int           `json:"count"`       // rounds
	CPUs     []int         `json:"cpus"`        // nil: the affinity mask
	Stress   bool          `json:"stress"`      // run writers unthrottled
	Paths    []string      `json:"paths"`       // paths to measure; nil: all
	// Writers are the writing paths that run beside a measured path; nil:
	// every path that writes.
	Writers []string `json:"writers"`
	// Progress, if set, is told what happens, between runs only.
	Progress func(Progress) `json:"-"`
}

// EmulateLine sets the options to emulate a target line size on the
// host's lines (HostLine), emulated lines spacing bytes apart (0: twice
// the host line, past the adjacent-line prefetcher). The target must be a
// power of two of 16 or more, other than the host's.
func (o *Options) EmulateLine(target, spacing int64) error {
	if target == o.HostLine {
		return fmt.Errorf("-emulate-line %d is this host's own line size; drop it to run natively", target)
	}
	if target < 16 || target&(target-1) != 0 {
		return fmt.Errorf("-emulate-line %d is not a power of two of 16 or more", target)
	}
	if spacing == 0 {
		spacing = 2 * o.HostLine
	}
	o.Line, o.Emulate, o.Spacing = target, target, spacing
	return nil
}

// MinDuration is the shortest run that measures anything: below it,
// starting and stopping the workers is a large part of the run.
const MinDuration = 10 * time.Millisecond

// Result holds the samples of every case.
type Result struct {
	Cases       []*Case `json:"cases"`
	Rounds      int     `json:"rounds"`      // rounds completed
	Interrupted bool    `json:"interrupted"` // stopped early (context cancelled); the rounds done are kept
	CPUs        []int   `json:"cpus"`
	Options     Options `json:"options"`
}

// Case is one path measured in one variant: with the writers of the
// variant running on CPUs of their own, or alone as the control.
type Case struct {
	Variant string       `json:"variant"`
	Path    *access.Path `json:"-"`     // the JSON names it: path
	Alone   bool         `json:"alone"` // the control: no other worker runs
	CPUs    int          `json:"cpus"`  // CPUs the path runs on
	// Samples are the path's completed iterations per second, all its
	// CPUs together, one per round.
	Samples []float64 `json:"samples"`
	// Writers are the background writers' iterations per second.
	Writers map[string][]float64 `json:"writers"`
	Retries []uint64             `json:"retries"` // seqlock retries per round
}

// MarshalJSON writes a case with its path by name.
func (c *Case) MarshalJSON() ([]byte, error) {
	type plain Case
	name := ""
	if c.Path != nil {
		name = c.Path.Name
	}
	return json.Marshal(struct {
		*plain
		Path string `json:"path"`
	}{(*plain)(c), name})
}

// Name identifies the case in progress lines and benchmark names.
func (c *Case) Name() string {
	name := c.Variant + "/" + c.Path.Name
	if c.Alone {
		name += "/alone"
	}
	return name
}

// variantPlan is a variant's paths, merged across objects.
type variantPlan struct {
	v       Variant
	phases  []int64
	paths   []*access.Path     // one per name, in first-seen order
	touches map[string][]touch // per path name
}

func plan(v Variant, o Options) (*variantPlan, error) {
	p := &variantPlan{v: v, touches: map[string][]touch{}}
	for obj, object := range v.Objects {
		phase, err := phaseFor(object, o)
		if err != nil {
			return nil, err
		}
		p.phases = append(p.phases, phase)
		for _, path := range object.Paths {
			ts, err := access.Resolve(path, object.Layout)
			if err != nil {
				return nil, err
			}
			if _, ok := p.touches[path.Name]; !ok {
				p.paths = append(p.paths, path)
			}
			for _, t := range ts {
				p.touches[path.Name] = append(p.touches[path.Name], touch{obj, t})
			}
		}
	}
	return p, nil
}

// phaseFor checks a requested phase against where the object can start.
func phaseFor(o *sharing.Object, opt Options) (int64, error) {
	reachable, _ := o.Phases(opt.Line)
	if len(reachable) == 0 {
		return 0, fmt.Errorf("%s occupies no line", o.Layout.Name)
	}
	if opt.Phase < 0 {
		return reachable[0], nil
	}
	if !slices.Contains(reachable, opt.Phase) {
		return 0, fmt.Errorf("%s cannot start %d bytes into a %d-byte line (it can start at %v); pick one of those with -phase",
			o.Layout.Name, opt.Phase, opt.Line, reachable)
	}
	return opt.Phase, nil
}

// Run measures every case of every variant in interleaved rounds: each
// round runs all cases once, in a new random order, so that drift of the
// machine spreads over all of them. It stops between runs when ctx is
// cancelled, keeping the rounds measured.
func Run(ctx context.Context, variants []Variant, o Options) (*Result, error) {
	if o.Duration < MinDuration {
		return nil, fmt.Errorf("a run of %v is too short to measure (use -duration %v or more)", o.Duration, MinDuration)
	}
	if o.Count < 1 {
		return nil, fmt.Errorf("-count %d: at least one round is needed", o.Count)
	}
	cpus, err := usableCPUs(o.CPUs)
	if err != nil {
		return nil, err
	}
	if o.Emulate > 0 && (o.HostLine <= 0 || o.Spacing < o.HostLine || o.Spacing%o.HostLine != 0) {
		return nil, fmt.Errorf("emulated lines must be a positive multiple of the host's %d-byte line apart, not %d (use -spacing %d)", o.HostLine, o.Spacing, 2*o.HostLine)
	}
	var plans []*variantPlan
	for _, v := range variants {
		p, err := plan(v, o)
		if err != nil {
			return nil, err
		}
		plans = append(plans, p)
	}
	if err := checkNames(plans, o); err != nil {
		return nil, err
	}
	var cases []*Case
	for _, p := range plans {
		for _, path := range p.paths {
			if len(o.Paths) > 0 && !slices.Contains(o.Paths, path.Name) {
				continue
			}
			for _, alone := range []bool{false, true} {
				c := &Case{Variant: p.v.Name, Path: path, Alone: alone, Writers: map[string][]float64{}}
				if _, _, err := c.assign(p, cpus, o); err != nil {
					return nil, err
				}
				cases = append(cases, c)
			}
		}
	}
	if len(cases) == 0 {
		return nil, errors.New("no path to measure (check -measure against the paths of the layouts)")
	}
	r := &Result{Cases: cases, CPUs: cpus, Options: o}
	prev := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(prev)
	runtime.GOMAXPROCS(max(prev, len(cpus)+1))

	planOf := map[string]*variantPlan{}
	for _, p := range plans {
		planOf[p.v.Name] = p
	}
	for round := range o.Count {
		order := slices.Clone(cases)
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for i, c := range order {
			if ctx.Err() != nil {
				r.Interrupted = true
				r.dropPartialRound(round)
				return r, nil
			}
			if o.Progress != nil {
				o.Progress(Progress{round + 1, o.Count, i + 1, len(order), c.Name()})
			}
			if err := c.runOnce(ctx, planOf[c.Variant], cpus, o); err != nil {
				return nil, err
			}
			if ctx.Err() != nil {
				// The run was cut short: it is no sample.
				r.Interrupted = true
				r.dropPartialRound(round)
				return r, nil
			}
		}
		r.Rounds = round + 1
	}
	return r, nil
}

// dropPartialRound removes the samples of an unfinished round, so that
// every case keeps the same number of samples.
func (r *Result) dropPartialRound(round int) {
	for _, c := range r.Cases {
		if len(c.Samples) > round {
			c.Samples = c.Samples[:round]
			c.Retries = c.Retries[:round]
			for w := range c.Writers {
				c.Writers[w] = c.Writers[w][:round]
			}
		}
	}
}

// ErrWritersCPUs is the error, wrapped, of a path whose writers and
// itself need more CPUs than are usable: each command names its own way
// out (fewer writers, more CPUs).
var ErrWritersCPUs = errors.New("too few CPUs for the writers")

// ErrTooFewCPUs is the error, wrapped, of a probe given fewer than 2
// usable CPUs: a machine's limit, not a mistake in the command line.
var ErrTooFewCPUs = errors.New("the probe needs at least 2 CPUs to make two of them share a line")

// UsableCPUs returns the CPUs a probe may run on: those asked for, which
// must be in the affinity mask, or the mask. Fewer than 2 is
// ErrTooFewCPUs.
func UsableCPUs(want []int) ([]int, error) { return usableCPUs(want) }

func usableCPUs(want []int) ([]int, error) {
	mask, err := affinity()
	if err != nil {
		return nil, err
	}
	cpus := mask
	if len(want) > 0 {
		for _, c := range want {
			if !slices.Contains(mask, c) {
				return nil, fmt.Errorf("-cpus: CPU %d is not in the affinity mask %v", c, mask)
			}
		}
		cpus = want
	}
	if len(cpus) < 2 {
		return nil, fmt.Errorf("%w; the affinity mask allows %v (run on a machine, or with a mask, of 2 or more)", ErrTooFewCPUs, cpus)
	}
	for i, c := range cpus {
		if slices.Contains(cpus[:i], c) {
			return nil, fmt.Errorf("-cpus names CPU %d twice: each worker needs a CPU of its own", c)
		}
	}
	return cpus, nil
}

// assign gives the background writers a CPU each and the measured path
// the rest it asks for; it fails when there are not enough CPUs. The
// control runs the path alone on the very CPUs it has beside the writers,
// so that the two differ only in the writers.
func (c *Case) assign(p *variantPlan, cpus []int, o Options) (writers map[string]int, focus []int, err error) {
	writers = map[string]int{}
	next := 0
	for _, w := range p.paths {
		if w.Name == c.Path.Name || !p.writes(w.Name) || len(o.Writers) > 0 && !slices.Contains(o.Writers, w.Name) {
			continue
		}
		if next >= len(cpus)-1 {
			return nil, nil, fmt.Errorf("%w: %s: measuring %s beside %d writer paths needs %d CPUs, but %d are usable",
				ErrWritersCPUs, p.v.Name, c.Path.Name, len(writers)+1, len(writers)+2, len(cpus))
		}
		writers[w.Name] = cpus[next]
		next++
	}
	want := c.Path.CPUs
	if want == access.AllCPUs || want > len(cpus)-next {
		want = len(cpus) - next
	}
	c.CPUs = want
	focus = cpus[next : next+want]
	if c.Alone {
		writers = map[string]int{}
	}
	return writers, focus, nil
}

// worker is one goroutine's share of a run.
type worker struct {
	prog       *program
	cpu        int
	rate       float64
	iterations uint64
	retries    uint64
	err        error
}

func (c *Case) runOnce(ctx context.Context, p *variantPlan, cpus []int, o Options) error {
	writers, focus, err := c.assign(p, cpus, o)
	if err != nil {
		return err
	}
	running := []string{c.Path.Name}
	for name := range writers {
		running = append(running, name)
	}
	m, err := p.place(o, running)
	if err != nil {
		return err
	}
	defer m.close()

	var focusWorkers []*worker
	writerWorkers := map[string]*worker{}
	for _, cpu := range focus {
		prog, err := compile(c.Path, p.touches[c.Path.Name], m)
		if err != nil {
			return err
		}
		focusWorkers = append(focusWorkers, &worker{prog: prog, cpu: cpu})
	}
	for name, cpu := range writers {
		path := p.path(name)
		prog, err := compile(path, p.touches[name], m)
		if err != nil {
			return err
		}
		rate := path.Rate
		if o.Stress {
			rate = access.Hot
		}
		writerWorkers[name] = &worker{prog: prog, cpu: cpu, rate: rate}
	}
	all := append(slices.Clone(focusWorkers), mapValues(writerWorkers)...)
	elapsed, err := measure(ctx, all, o.Duration)
	if err != nil {
		return err
	}
	var iterations, retries uint64
	for _, w := range focusWorkers {
		iterations += w.iterations
		retries += w.retries
	}
	c.Samples = append(c.Samples, float64(iterations)/elapsed.Seconds())
	c.Retries = append(c.Retries, retries)
	for name, w := range writerWorkers {
		c.Writers[name] = append(c.Writers[name], float64(w.iterations)/elapsed.Seconds())
	}
	return nil
}

func mapValues(m map[string]*worker) []*worker {
	var out []*worker
	for _, k := range slices.Sorted(mapKeys(m)) {
		out = append(out, m[k])
	}
	return out
}

func mapKeys(m map[string]*worker) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func (p *variantPlan) path(name string) *access.Path {
	for _, path := range p.paths {
		if path.Name == name {
			return path
		}
	}
	return nil
}

// placement is placed memory, freed after the run.
type placement interface {
	mapper
	close() error
}

// place lays out the variant's objects for one run of the paths named in
// running: natively, or packed for an emulated line size, where only the
// words those paths access matter.
func (p *variantPlan) place(o Options, running []string) (placement, error) {
	var layouts []*layout.Struct
	for _, obj := range p.v.Objects {
		layouts = append(layouts, obj.Layout)
	}
	if o.Emulate == 0 {
		return placeNative(layouts, p.phases)
	}
	words := make([][]wordAccess, len(layouts))
	for _, name := range running {
		for _, t := range p.touches[name] {
			for _, w := range wordsOf(t) {
				words[t.obj] = append(words[t.obj], wordAccess{w, name + ":" + t.Op.String()})
			}
		}
	}
	return placeEmulated(layouts, p.phases, words, emulation{target: o.Emulate, host: o.HostLine, spacing: o.Spacing})
}

// writes reports whether the named path stores into any object.
// checkNames checks, before anything is measured, that every path asked
// for exists in some variant and that every writer asked for writes there.
func checkNames(plans []*variantPlan, o Options) error {
	var paths, writers []string
	for _, p := range plans {
		for _, path := range p.paths {
			if !slices.Contains(paths, path.Name) {
				paths = append(paths, path.Name)
			}
			if p.writes(path.Name) && !slices.Contains(writers, path.Name) {
				writers = append(writers, path.Name)
			}
		}
	}
	for _, name := range o.Paths {
		if !slices.Contains(paths, name) {
			return fmt.Errorf("-measure %s: no layout has a path of that name (they have %s)", name, strings.Join(paths, ", "))
		}
	}
	for _, name := range o.Writers {
		if !slices.Contains(writers, name) {
			if len(writers) == 0 {
				return fmt.Errorf("-writers %s: no layout has a path that writes", name)
			}
			return fmt.Errorf("-writers %s: no layout has a writing path of that name (the writers are %s)", name, strings.Join(writers, ", "))
		}
	}
	return nil
}

func (p *variantPlan) writes(name string) bool {
	return slices.ContainsFunc(p.touches[name], func(t touch) bool { return t.Op.Writes() })
}

// measure starts the workers together, lets them run for d (or until ctx
// is done), stops them and returns how long they ran. Workers run on
// locked threads pinned to their CPUs; they exit without unlocking, so the
// runtime retires the threads and their affinity with them.
func measure(ctx context.Context, workers []*worker, d time.Duration) (time.Duration, error) {
	f := new(flag)
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	var failed atomic.Bool
	for _, w := range workers {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			w.err = pin(w.cpu)
			if w.err != nil {
				failed.Store(true)
			}
			ready.Done()
			<-start
			if w.err == nil && !failed.Load() {
				w.iterations, w.retries = w.prog.loop(&f.stop, w.rate)
			}
		}()
	}
	ready.Wait()
	elapsed := runFor(ctx, d, start, &f.stop)
	done.Wait()
	for _, w := range workers {
		if w.err != nil {
			return 0, w.err
		}
	}
	return elapsed, nil
}

// runFor releases the workers waiting on start, sets stop after d or when
// ctx ends, whichever comes first, and returns how long they ran.
func runFor(ctx context.Context, d time.Duration, start chan struct{}, stop *atomic.Bool) time.Duration {
	t0 := time.Now()
	close(start)
	timer := time.NewTimer(d)
	select {
	case <-timer.C:
	case <-ctx.Done():
		timer.Stop()
	}
	stop.Store(true)
	return time.Since(t0)
}
