package probe

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/probe/stats"
)

// ClockOptions control a measurement of clock reads.
type ClockOptions struct {
	Duration time.Duration `json:"duration_ns"` // of one run of one row
	Count    int           `json:"count"`       // rounds
	// CPUs: the reads run on the first; nil: on the first CPU of the
	// affinity mask.
	CPUs []int `json:"cpus"`
	// Progress, if set, is told what happens, between runs only.
	Progress func(Progress) `json:"-"`
}

// ClockResult is the cost of one read of the realtime clock, fine and
// coarse, through the vDSO and through the system call.
type ClockResult struct {
	// Rows are in a fixed order; a row that could not be measured has
	// no samples and says why in Missing.
	Rows        []*ClockRow `json:"rows"`
	Rounds      int         `json:"rounds"`      // rounds completed
	Interrupted bool        `json:"interrupted"` // stopped early (context cancelled); the rounds done are kept
	CPU         int         `json:"cpu"`         // the CPU the reads ran on; -1 when not pinned
	// Clocksource is the kernel's current clocksource (sysfs); the vDSO
	// falls back to the system call when it has no vDSO mode.
	Clocksource string `json:"clocksource"`
	// CoarseResolution is clock_getres(CLOCK_REALTIME_COARSE): the tick,
	// the only moment the coarse clock changes.
	CoarseResolution time.Duration `json:"coarse_resolution_ns"`
	Options          ClockOptions  `json:"options"`
	// Reference names the 2018 figures of the Reference fields.
	Reference string `json:"reference"`
}

// ClockRow is one way of reading one clock.
type ClockRow struct {
	Name   string `json:"name"`  // the call with its clock, e.g. "C clock_gettime(CLOCK_REALTIME_COARSE)"
	Call   string `json:"call"`  // the call alone, e.g. "C clock_gettime"
	Clock  string `json:"clock"` // CLOCK_REALTIME, CLOCK_REALTIME_COARSE, ...
	Coarse bool   `json:"coarse"`
	Via    string `json:"via"` // "vDSO" or "syscall"
	How    string `json:"how"` // the mechanism, in a sentence
	// Samples are the nanoseconds one call costs, one per round: the
	// median over the round's batches.
	Samples []float64 `json:"samples_ns"`
	// Reference is the 2018 figure for the same clock and mechanism, in
	// ns (0: none; see ClockResult.Reference).
	Reference float64 `json:"reference_ns,omitempty"`
	// Missing says why the row was not measured; empty when it was.
	Missing string `json:"missing,omitempty"`

	// read performs n calls and returns how long they took.
	read func(n int) (time.Duration, error)
}

// ClockReference2018 is where the reference figures come from: the
// message, its author and date, the machine, and how its program
// measured (probe/testdata/clock2018.txt holds the message).
const ClockReference2018 = `Arnd Bergmann, 25 Jun 2018, "Re: [PATCH] vfs: replace current_kernel_time64 with ktime equivalent" (linux-kernel), on a 3.1 GHz Ryzen: his program counts clock_gettime calls of CLOCK_REALTIME and CLOCK_REALTIME_COARSE, through the vDSO and as syscall(__NR_clock_gettime), until a second has passed since the first, and prints one second over the count`

// Reference figures of 2018, ns per read.
const (
	ref2018VDSOFine      = 37.18
	ref2018VDSOCoarse    = 6.44
	ref2018SyscallFine   = 161.62
	ref2018SyscallCoarse = 133.87
)

func reference2018(via string, coarse bool) float64 {
	switch {
	case via == viaVDSO && !coarse:
		return ref2018VDSOFine
	case via == viaVDSO:
		return ref2018VDSOCoarse
	case !coarse:
		return ref2018SyscallFine
	}
	return ref2018SyscallCoarse
}

const (
	viaVDSO    = "vDSO"
	viaSyscall = "syscall"
)

// clockBatch is how long one batch of reads should take: long enough
// that the clock reads around it (and, for C loops, the cgo call) vanish,
// short enough that a run stops close to its end.
const clockBatch = time.Millisecond

// Clocks measures what one read of the realtime clock costs on this host,
// fine and coarse, through the vDSO and through the system call, as the
// 2018 test that motivated coarse inode timestamps did: every row runs
// for Duration per round, rows in a new random order each round, on a
// thread pinned to one CPU. A run is a series of batches of about a
// millisecond each; its sample is the median over the batches of the
// cost per call, so that a batch the scheduler interrupted does not
// count. It stops between batches when ctx is cancelled, keeping the
// rounds completed.
func Clocks(ctx context.Context, o ClockOptions) (*ClockResult, error) {
	if o.Duration < MinDuration {
		return nil, fmt.Errorf("a run of %v is too short to measure (use -duration %v or more)", o.Duration, MinDuration)
	}
	if o.Count < 1 {
		return nil, fmt.Errorf("-count %d: at least one round is needed", o.Count)
	}
	r := &ClockResult{Rows: clockRows(), CPU: -1, Options: o, Reference: ClockReference2018}
	r.Clocksource, r.CoarseResolution = clockInfo()
	var rows []*ClockRow
	for _, row := range r.Rows {
		if row.Name != goTimeNow { // two reads: no figure of 2018 to hold it against
			row.Reference = reference2018(row.Via, row.Coarse)
		}
		if row.Missing == "" {
			// One call first: a clock the kernel refuses is a missing
			// row, not a failed measurement.
			if _, err := row.read(1); err != nil {
				row.Missing = err.Error()
				continue
			}
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return r, nil
	}
	cpus, err := affinity()
	switch {
	case len(o.CPUs) > 0 && (err != nil || !containsInt(cpus, o.CPUs[0])):
		return nil, fmt.Errorf("-cpus: CPU %d is not in the affinity mask %v", o.CPUs[0], cpus)
	case len(o.CPUs) > 0:
		r.CPU = o.CPUs[0]
	case err == nil && len(cpus) > 0:
		r.CPU = cpus[0]
	}
	errc := make(chan error, 1)
	go func() {
		// The thread stays locked: the runtime retires it, and its
		// affinity with it, when the goroutine exits.
		// Pinning only keeps the reads from migrating: where it is not
		// allowed they run unpinned, unless a CPU was asked for.
		if r.CPU >= 0 {
			if err := pin(r.CPU); err != nil {
				if len(o.CPUs) > 0 {
					errc <- err
					return
				}
				r.CPU = -1
			}
		}
		errc <- r.run(ctx, rows)
	}()
	if err := <-errc; err != nil {
		return nil, err
	}
	return r, nil
}

func (r *ClockResult) run(ctx context.Context, rows []*ClockRow) error {
	o := r.Options
	batch := map[*ClockRow]int{}
	for _, row := range rows {
		n, err := calibrate(row)
		if err != nil {
			return err
		}
		batch[row] = n
	}
	for round := range o.Count {
		order := append([]*ClockRow(nil), rows...)
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for i, row := range order {
			if ctx.Err() != nil {
				return r.interrupt(round)
			}
			if o.Progress != nil {
				o.Progress(Progress{round + 1, o.Count, i + 1, len(order), row.Name})
			}
			var perCall []float64
			for t0 := time.Now(); time.Since(t0) < o.Duration && ctx.Err() == nil; {
				d, err := row.read(batch[row])
				if err != nil {
					return fmt.Errorf("%s: %v", row.Name, err)
				}
				perCall = append(perCall, float64(d.Nanoseconds())/float64(batch[row]))
			}
			if ctx.Err() != nil {
				return r.interrupt(round)
			}
			row.Samples = append(row.Samples, median(perCall))
		}
		r.Rounds = round + 1
	}
	return nil
}

// median is the middle of xs (which it sorts), the mean of the two
// middle values for an even count.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// interrupt drops the samples of an unfinished round.
func (r *ClockResult) interrupt(round int) error {
	r.Interrupted = true
	for _, row := range r.Rows {
		if len(row.Samples) > round {
			row.Samples = row.Samples[:round]
		}
	}
	return nil
}

// calibrate finds how many calls of a row fill one batch.
func calibrate(row *ClockRow) (int, error) {
	n := 64
	for {
		d, err := row.read(n)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", row.Name, err)
		}
		if d >= clockBatch/4 || n >= 1<<26 {
			per := max(float64(d.Nanoseconds())/float64(n), 0.1)
			return max(int(float64(clockBatch.Nanoseconds())/per), 1), nil
		}
		n *= 4
	}
}

const goTimeNow = "time.Now()"

// goTimeNowRow is Go's own clock read: the vDSO's fine clock, twice.
func goTimeNowRow() *ClockRow {
	return &ClockRow{
		Name: goTimeNow, Call: "time.Now", Clock: "CLOCK_REALTIME+CLOCK_MONOTONIC", Via: viaVDSO,
		How: "Go's runtime calls the vDSO's clock_gettime twice per time.Now, for the wall clock (CLOCK_REALTIME) and the monotonic reading (CLOCK_MONOTONIC), on the system stack",
		read: func(n int) (time.Duration, error) {
			t0 := time.Now()
			var sink int64
			for range n {
				sink += time.Now().UnixNano()
			}
			d := time.Since(t0)
			clockSink += sink
			return d, nil
		},
	}
}

// clockSink keeps the loops' results alive.
var clockSink int64

// WriteClocks writes a clock measurement for people: per row the median
// cost of a call with its interval and the 2018 figure beside it, the
// coarse clock's saving against the fine one, and why rows are missing.
func WriteClocks(w io.Writer, r *ClockResult) error {
	var b strings.Builder
	where := "unpinned"
	if r.CPU >= 0 {
		where = fmt.Sprintf("pinned to CPU %d", r.CPU)
	}
	fmt.Fprintf(&b, "clock reads: %d rounds of %v per row, interleaved, %s\n", r.Rounds, r.Options.Duration, where)
	if r.Clocksource != "" {
		fmt.Fprintf(&b, "clocksource: %s\n", r.Clocksource)
	}
	if r.CoarseResolution > 0 {
		fmt.Fprintf(&b, "CLOCK_REALTIME_COARSE resolution %v: the coarse clock moves once per tick.\n", r.CoarseResolution)
	}
	if r.Interrupted {
		b.WriteString("INCOMPLETE: interrupted; the rounds completed are shown.\n")
	}
	b.WriteString("\n")
	// The call and its clock in columns of their own keep a row within
	// 80 columns.
	rows := [][]string{{"call", "clock", "via", "ns/call", "2018*"}}
	for _, row := range r.Rows {
		if row.Missing != "" {
			continue
		}
		ref := "-"
		if row.Reference > 0 {
			ref = fmt.Sprintf("%.2f", row.Reference)
		}
		rows = append(rows, []string{row.Call, strings.ReplaceAll(row.Clock, "CLOCK_", ""), row.Via, nanos(stats.Summarize(row.Samples)), ref})
	}
	if len(rows) > 1 {
		textfmt.Table(&b, "", rows)
	} else {
		b.WriteString("no row could be measured.\n")
	}
	if rows := coarseSavings(r); len(rows) > 1 {
		b.WriteString("\ncoarse vs fine, same mechanism:\n")
		textfmt.Table(&b, "", rows)
		note := fmt.Sprintf("change in ns/call, %d rounds each", r.Rounds)
		if len(rows) > 2 {
			note += fmt.Sprintf("; p-values corrected for the %d comparisons (Holm)", len(rows)-1)
		}
		textfmt.Fill(&b, note+"; beside ~, the smallest change the rounds could see.", "", "", textWidth)
	}
	if note := vdsoFallback(r); note != "" {
		fmt.Fprintf(&b, "\n%s\n", note)
	}
	// Rows missing for one reason are named together.
	var reasons []string
	missing := map[string][]string{}
	for _, row := range r.Rows {
		if row.Missing != "" {
			if missing[row.Missing] == nil {
				reasons = append(reasons, row.Missing)
			}
			missing[row.Missing] = append(missing[row.Missing], row.Name)
		}
	}
	if len(reasons) > 0 {
		b.WriteString("\nnot measured:\n")
		for _, why := range reasons {
			textfmt.Fill(&b, strings.Join(missing[why], ", ")+": "+why+".", "  ", "    ", textWidth)
		}
	}
	b.WriteString("\nhow each call reads the clock:\n")
	seen := map[string]bool{}
	for _, row := range r.Rows {
		if row.Missing == "" && !seen[row.Call] {
			seen[row.Call] = true
			textfmt.Fill(&b, row.Call+": "+row.How+".", "  ", "    ", textWidth)
		}
	}
	b.WriteString("\n")
	textfmt.Fill(&b, "* "+r.Reference+".", "", "  ", textWidth)
	textfmt.Fill(&b, "In the kernel every inode timestamp reads the coarse clock (current_time()). From v6.13 a multigrain inode whose ctime was queried since it last changed gets a fine read instead when the coarse time would not move it, and setting that ctime may cmpxchg the floor (mg_floor). The fine-minus-coarse cost per read above is what the floor trades against.", "", "", textWidth)
	if r.Rounds < stats.MinForCI {
		fmt.Fprintf(&b, "\n%d rounds are too few for confidence intervals; run at least %d (-count).\n", r.Rounds, stats.MinForCI)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// nanos writes a summary of ns per call as "20.1 ± 1%".
func nanos(s stats.Summary) string {
	if s.N == 0 || math.IsNaN(s.Median) {
		return "-"
	}
	return fmt.Sprintf("%.2f ± %s", s.Median, s.RangePct())
}

// coarseSavings pairs each fine row with the coarse row of the same
// call, as table rows under a header, the comparisons one family.
func coarseSavings(r *ClockResult) [][]string {
	type pair struct{ fine, coarse *ClockRow }
	var pairs []pair
	var family []stats.Comparison
	for _, fine := range r.Rows {
		if fine.Coarse || fine.Missing != "" || len(fine.Samples) == 0 {
			continue
		}
		for _, coarse := range r.Rows {
			if !coarse.Coarse || coarse.Call != fine.Call || coarse.Via != fine.Via || coarse.Missing != "" || len(coarse.Samples) == 0 {
				continue
			}
			pairs = append(pairs, pair{fine, coarse})
			family = append(family, stats.Compare(fine.Samples, coarse.Samples))
		}
	}
	stats.Holm(family)
	rows := [][]string{{"call", "via", "fine → coarse ns", "change", "2018*"}}
	for i, p := range pairs {
		c := family[i]
		change := fmt.Sprintf("%s (p=%.3f)", c.DeltaString(), c.P)
		if !c.Significant() {
			change = fmt.Sprintf("~ (p=%.3f, %s)", c.P, stats.MDEPercent(c.MDE))
		}
		ref := "-"
		if p.coarse.Reference > 0 && p.fine.Reference > 0 {
			ref = fmt.Sprintf("%+.0f%%", 100*(p.coarse.Reference/p.fine.Reference-1))
		}
		fm, cm := stats.Summarize(p.fine.Samples).Median, stats.Summarize(p.coarse.Samples).Median
		rows = append(rows, []string{p.fine.Call, p.fine.Via, fmt.Sprintf("%.2f → %.2f", fm, cm), change, ref})
	}
	return rows
}

// vdsoFallback says when the vDSO's fine read costs about what the system
// call does: the clocksource then has no vDSO mode and the vDSO falls back
// to the system call.
func vdsoFallback(r *ClockResult) string {
	var vdso, sys float64
	for _, row := range r.Rows {
		if row.Coarse || row.Missing != "" || len(row.Samples) == 0 || !strings.HasPrefix(row.Call, "C ") {
			continue
		}
		m := stats.Summarize(row.Samples).Median
		switch row.Via {
		case viaVDSO:
			vdso = m
		case viaSyscall:
			sys = m
		}
	}
	if vdso == 0 || sys == 0 || vdso < 0.7*sys {
		return ""
	}
	cs := r.Clocksource
	if cs == "" {
		cs = "unknown"
	}
	return fmt.Sprintf("The vDSO's fine read costs %.0f%% of the system call: the clocksource (%s) seems to have no vDSO mode, so the vDSO falls back to the system call.", 100*vdso/sys, cs)
}

// cClockTemplate returns the rows of the C loops, without their read functions:
// libc's clock_gettime, which goes through the vDSO, and the raw system
// call, for the fine and the coarse realtime clock. Each loop runs and is
// timed inside C, so that the cgo call is paid once per batch, not once
// per read.
func cClockTemplate() []*ClockRow {
	const vdso = "a C loop calls libc's clock_gettime, which calls the vDSO's: the clock is read in user space from the kernel's vDSO data page; timed in C, the cgo call paid once per batch"
	const sys = "a C loop makes the clock_gettime system call with syscall(2), bypassing the vDSO, as the 2018 test's system-call figures did; timed in C"
	var rows []*ClockRow
	for _, c := range []struct {
		call, via, how string
	}{{"C clock_gettime", viaVDSO, vdso}, {"C syscall(SYS_clock_gettime)", viaSyscall, sys}} {
		for _, coarse := range []bool{false, true} {
			clock := "CLOCK_REALTIME"
			if coarse {
				clock = "CLOCK_REALTIME_COARSE"
			}
			name := c.call + "(" + clock + ")"
			if c.via == viaSyscall {
				name = "C syscall(SYS_clock_gettime, " + clock + ")"
			}
			rows = append(rows, &ClockRow{Name: name, Call: c.call, Clock: clock, Coarse: coarse, Via: c.via, How: c.how})
		}
	}
	return rows
}

// missingClockRows are rows that cannot be measured, for the reason why.
func missingClockRows(rows []*ClockRow, why string) []*ClockRow {
	for _, r := range rows {
		r.Missing = why
	}
	return rows
}

// textWidth is the width the explanations are wrapped to.
const textWidth = 80
