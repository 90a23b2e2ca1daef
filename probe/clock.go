package probe

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

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

// VDSOFallback reports whether the vDSO's fine read costs about what the
// system call does (70 % of it or more), and its share: the clocksource
// then has no vDSO mode and the vDSO falls back to the system call.
func (r *ClockResult) VDSOFallback() (share float64, fallback bool) {
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
		return 0, false
	}
	return vdso / sys, true
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
