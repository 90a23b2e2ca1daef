package probe

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"strconv"
	"time"
)

// The kernel workloads are the ones the timekeeping layout discussions
// were measured with: will-it-scale's pipe1 in thread mode (the LKP
// robot's pipe1 regression of the multigrain timestamp series, reported
// as per_thread_ops) and UnixBench's "Pipe Throughput" (Guo Hui's +12-30 %
// with the 2023 tk_core padding on Kunpeng 920).
//
// What each iteration costs in the clock code, as far as
// ../shared/kernel/kernel_truth.md knows it:
//
//   - Known: pipe_write stamps the pipe inode through file_update_time and
//     pipe_read through touch_atime; the LKP profile of the mgtime series
//     (kernel_truth.md §5) shows coarse_ctime under exactly those two
//     calls, with ktime_get_coarse_ts64 under it. Up to v6.12
//     current_time() reads ktime_get_coarse_real_ts64(): seq and
//     xtime_sec, tkr_mono.xtime_nsec/shift of tk_core, lines 0+1 at 64 B.
//   - Known: from v6.13 current_time() calls ktime_get_coarse_real_ts64_mg()
//     for every inode, which loads mg_floor (its own cache line) before
//     one seqcount pass over tk_core. The series that made two passes
//     cost pipe1 -5.5 % per_thread_ops on a 64-thread Ice Lake; the
//     merged v9 costs under 1 % (kernel_truth.md §5).
//   - Not known from kernel_truth.md: whether pipefs, the internal
//     filesystem pipes live on, is a multigrain filesystem (FS_MGTIME).
//     If it is not, a pipe never takes the fine-grained path
//     (ktime_get_real_ts64_mg, the cmpxchg of mg_floor); it only reads
//     the floor. Nor how many of the iterations actually store a new
//     timestamp rather than only read the clock to compare: the coarse
//     clock moves once per tick.
//
// So these workloads exercise the coarse readers of tk_core (and from
// v6.13 the floor's line) from every CPU at once, against the tick that
// rewrites tk_core, plus everything else a pipe round trip costs. They
// measure the running kernel; comparing two kernels (baseline, patched)
// on one machine is how a layout patch is judged.

// KernelOptions control the kernel workloads.
type KernelOptions struct {
	Duration time.Duration `json:"duration_ns"` // of one run
	Count    int           `json:"count"`       // rounds
	// Workers is the number of pipe1 threads; 0: one per usable CPU.
	Workers int   `json:"workers"`
	CPUs    []int `json:"cpus"` // nil: the affinity mask
	// Progress, if set, is told what happens, between runs only.
	Progress func(Progress) `json:"-"`
}

// KernelResult is the running kernel and what its pipe workloads did.
type KernelResult struct {
	Release string `json:"release"` // uname -r
	Version string `json:"version"` // uname -v
	Machine string `json:"machine"` // uname -m
	// Model is the built-in model nearest to Release, and ModelNote
	// what to keep in mind about the match (empty when it is exact).
	Model     string `json:"model"`
	ModelNote string `json:"model_note,omitempty"`
	// Floor is the multigrain floor's model where the kernel has one.
	Floor       string            `json:"floor,omitempty"`
	Workloads   []*KernelWorkload `json:"workloads"`
	Rounds      int               `json:"rounds"`      // rounds completed
	Interrupted bool              `json:"interrupted"` // stopped early (context cancelled); the rounds done are kept
	CPUs        []int             `json:"cpus"`
	Options     KernelOptions     `json:"options"`
}

// KernelWorkload is one workload's samples.
type KernelWorkload struct {
	Name  string `json:"name"`  // "pipe1_threads" or "pipe_throughput"
	Title string `json:"title"` // what it reproduces and how
	Bytes int    `json:"bytes"` // written and read back per iteration
	CPUs  []int  `json:"cpus"`  // each worker's CPU
	// Total is the iterations per second of all workers together, the
	// sum of their rates, one sample per round.
	Total []float64 `json:"total"`
	// Worker holds each worker's own iterations per second:
	// Worker[w][round]. A worker's rate in a run is the median over its
	// chunks of 256 iterations, each timed, so that chunks during which
	// the scheduler ran something else on its CPU do not count; on a
	// quiet machine that is its iterations divided by the run's length.
	Worker [][]float64 `json:"worker"`
}

// Workers is the number of worker threads.
func (w *KernelWorkload) Workers() int { return len(w.CPUs) }

// PerThread is Total divided by the number of workers, per round: the
// figure LKP reports as will-it-scale's per_thread_ops.
func (w *KernelWorkload) PerThread() []float64 {
	out := make([]float64, len(w.Total))
	for i, t := range w.Total {
		out[i] = t / float64(len(w.CPUs))
	}
	return out
}

// Kernel runs the pipe workloads in interleaved rounds: pipe1_threads,
// N workers each writing one byte into a pipe of its own and reading it
// back, and UnixBench's pipe throughput, one worker doing the same with
// 512 bytes. Every worker runs on a locked thread pinned to its CPU.
// Cancelling ctx stops the run in progress; the complete rounds are kept.
func Kernel(ctx context.Context, o KernelOptions) (*KernelResult, error) {
	if o.Duration < MinDuration {
		return nil, fmt.Errorf("a run of %v is too short to measure (use -duration %v or more)", o.Duration, MinDuration)
	}
	if o.Count < 1 {
		return nil, fmt.Errorf("-count %d: at least one round is needed", o.Count)
	}
	if o.Workers < 0 {
		return nil, fmt.Errorf("-workers %d: want 0 (one per CPU) or more", o.Workers)
	}
	mask, err := affinity()
	if err != nil {
		return nil, err
	}
	cpus := mask
	if len(o.CPUs) > 0 {
		for i, c := range o.CPUs {
			if !containsInt(mask, c) {
				return nil, fmt.Errorf("-cpus: CPU %d is not in the affinity mask %v", c, mask)
			}
			if containsInt(o.CPUs[:i], c) {
				return nil, fmt.Errorf("-cpus: CPU %d is named twice", c)
			}
		}
		cpus = o.CPUs
	}
	if len(cpus) == 0 {
		return nil, fmt.Errorf("the affinity mask allows no CPU")
	}
	u, err := uname()
	if err != nil {
		return nil, err
	}
	r := &KernelResult{Release: u.release, Version: u.version, Machine: u.machine, CPUs: cpus, Options: o}
	r.Model, r.ModelNote = NearestModel(u.release)
	r.Floor = FloorModel(u.release)

	n := o.Workers
	if n == 0 {
		n = len(cpus)
	}
	pipe1 := &KernelWorkload{Name: "pipe1_threads", Title: "will-it-scale's pipe1 in thread mode: each worker writes 1 byte into a pipe of its own and reads it back", Bytes: 1}
	for i := range n {
		pipe1.CPUs = append(pipe1.CPUs, cpus[i%len(cpus)])
	}
	unixbench := &KernelWorkload{Name: "pipe_throughput", Title: "UnixBench's Pipe Throughput: one worker writes 512 bytes into a pipe and reads them back", Bytes: 512, CPUs: cpus[:1]}
	r.Workloads = []*KernelWorkload{pipe1, unixbench}
	for _, w := range r.Workloads {
		w.Worker = make([][]float64, len(w.CPUs))
	}

	prev := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(prev)
	runtime.GOMAXPROCS(max(prev, n+1))

	for round := range o.Count {
		order := append([]*KernelWorkload(nil), r.Workloads...)
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for i, w := range order {
			if ctx.Err() != nil {
				r.interrupt(round)
				return r, nil
			}
			if o.Progress != nil {
				o.Progress(Progress{round + 1, o.Count, i + 1, len(order), w.Name})
			}
			rates, err := runPipes(ctx, w.CPUs, w.Bytes, o.Duration)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", w.Name, err)
			}
			var total float64
			for k, rate := range rates {
				total += rate
				w.Worker[k] = append(w.Worker[k], rate)
			}
			w.Total = append(w.Total, total)
		}
		if ctx.Err() != nil { // the last run was cut short
			r.interrupt(round)
			return r, nil
		}
		r.Rounds = round + 1
	}
	return r, nil
}

// interrupt drops the samples of an unfinished round.
func (r *KernelResult) interrupt(round int) {
	r.Interrupted = true
	for _, w := range r.Workloads {
		w.Total = w.Total[:min(len(w.Total), round)]
		for k := range w.Worker {
			w.Worker[k] = w.Worker[k][:min(len(w.Worker[k]), round)]
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// unameInfo is what uname(2) says of the kernel.
type unameInfo struct{ release, version, machine string }

// kernelModels maps kernel versions to the built-in models whose layout
// they have, oldest first: a kernel from the version given up to the
// next entry has the model's layout (kernel_truth.md §1-2).
var kernelModels = []struct {
	major, minor int
	model        string
}{
	{5, 10, "tk_core@v6.1"},  // v5.10-v6.12: the layout of v6.1
	{6, 13, "tk_data@v6.13"}, // the reorder, tk_data, mg_floor
	{6, 15, "tk_data@v6.15"}, // coarse_nsec
	{6, 17, "tk_data@v6.17"}, // id/clock_valid, aux clocks
	{7, 1, "tk_data@v7.1"},   // cs_id, cs_ns_to_cyc_*
}

// newestModelled is the newest kernel whose layout a model was taken
// from (v7.1-rc1).
var newestModelled = [2]int{7, 1}

var releaseRE = regexp.MustCompile(`^(\d+)\.(\d+)(?:\.(\d+))?`)

// parseRelease reads major, minor and patch level from a uname -r
// string such as "6.18.44-fc-v669" or "6.13.0-rc3".
func parseRelease(release string) (major, minor, patch int, ok bool) {
	m := releaseRE.FindStringSubmatch(release)
	if m == nil {
		return 0, 0, 0, false
	}
	major, _ = strconv.Atoi(m[1])
	minor, _ = strconv.Atoi(m[2])
	if m[3] != "" {
		patch, _ = strconv.Atoi(m[3])
	}
	return major, minor, patch, true
}

// NearestModel returns the built-in model whose layout a kernel of this
// release (uname -r) has, or the nearest one, with a note when the match
// is not exact: v5.10-v6.12 tk_core@v6.1, v6.13-v6.14 tk_data@v6.13,
// v6.15-v6.16 tk_data@v6.15, v6.17-v7.0 tk_data@v6.17, v7.1 on
// tk_data@v7.1; older kernels get tk_core@v6.1 with a note. A release
// with no version in it gives no model, and the note says why.
func NearestModel(release string) (name string, note string) {
	major, minor, patch, ok := parseRelease(release)
	if !ok {
		return "", fmt.Sprintf("cannot read a kernel version from %q (want e.g. 6.13.2)", release)
	}
	v := [2]int{major, minor}
	if less(v, [2]int{kernelModels[0].major, kernelModels[0].minor}) {
		return kernelModels[0].model, fmt.Sprintf("v%d.%d is older than the oldest modelled kernel (v5.10); tk_core@v6.1 is the nearest, and v5.x layouts before v5.10 were not checked", major, minor)
	}
	for i := len(kernelModels) - 1; i >= 0; i-- {
		m := kernelModels[i]
		if less(v, [2]int{m.major, m.minor}) {
			continue
		}
		switch {
		case less(newestModelled, v):
			note = fmt.Sprintf("v%d.%d is newer than the newest modelled kernel (v7.1-rc1); %s is the nearest, and later changes to struct timekeeper are not modelled", major, minor, m.model)
		case v == [2]int{6, 12} && patch >= 5:
			note = "stable 6.12.y from 6.12.5 carries backports that change struct timekeeper (d44d26987bb3 as 7b7a9175c63b, and b71f9804f66c); the exact layout after them was not checked"
		}
		return m.model, note
	}
	panic("unreachable")
}

// FloorModel returns the model of the multigrain floor (mg_floor) for a
// kernel that has it (v6.13 on), else "".
func FloorModel(release string) string {
	major, minor, _, ok := parseRelease(release)
	if !ok || less([2]int{major, minor}, [2]int{6, 13}) {
		return ""
	}
	return "mg_floor@v6.13"
}

func less(a, b [2]int) bool { return a[0] < b[0] || a[0] == b[0] && a[1] < b[1] }
