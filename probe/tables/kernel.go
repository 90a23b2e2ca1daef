package tables

import (
	"fmt"
	"io"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/stats"
)

// Kernel writes the measured part of a kernel run for people:
// the kernel and its nearest model, per workload the iterations per
// second of all workers together and per thread (LKP's per_thread_ops)
// with their intervals, and each worker's own rate. The static verdicts
// of the model, which belong beside these figures, are the caller's.
func Kernel(w io.Writer, r *probe.KernelResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "kernel: Linux %s (%s)\n", r.Release, r.Machine)
	model := r.Model
	if r.Floor != "" {
		model += " with " + r.Floor
	}
	if model != "" {
		fmt.Fprintf(&b, "nearest model: %s\n", model)
	}
	if r.ModelNote != "" {
		fmt.Fprintf(&b, "  note: %s\n", r.ModelNote)
	}
	fmt.Fprintf(&b, "pipe workloads: %d rounds of %v, interleaved; CPUs %v\n", r.Rounds, r.Options.Duration, r.CPUs)
	if r.Interrupted {
		b.WriteString("INCOMPLETE: interrupted; the rounds completed are shown.\n")
	}
	b.WriteString("\n")
	rows := [][]string{{"workload", "workers", "bytes", "iterations/s", "per thread"}}
	for _, wl := range r.Workloads {
		rows = append(rows, []string{wl.Name, fmt.Sprint(wl.Workers()), fmt.Sprint(wl.Bytes), rate(stats.Summarize(wl.Total)), rate(stats.Summarize(wl.PerThread()))})
	}
	textfmt.Table(&b, "", rows)
	b.WriteString("\nper worker (iterations/s):\n")
	for _, wl := range r.Workloads {
		var cells []string
		for k, cpu := range wl.CPUs {
			cells = append(cells, fmt.Sprintf("CPU %d %s", cpu, rate(stats.Summarize(wl.Worker[k]))))
		}
		fmt.Fprintf(&b, "  %s: %s\n", wl.Name, strings.Join(cells, ", "))
	}
	b.WriteString("\n")
	for _, wl := range r.Workloads {
		textfmt.Fill(&b, wl.Name+": "+wl.Title+".", "", "  ", textWidth)
	}
	textfmt.Fill(&b, "A worker's rate is the median over its chunks of 256 iterations, so that time the scheduler gave to others does not count; per thread is the total divided by the workers, LKP's per_thread_ops.", "", "", textWidth)
	textfmt.Fill(&b, "Each pipe write stamps the pipe inode's mtime and ctime (file_update_time) and each read its atime (touch_atime), through the kernel's coarse realtime clock, which from v6.13 also loads the multigrain floor (mg_floor). For scale, LKP (Sep 2024, 64-thread Xeon Gold 6346): pipe1 per_thread_ops 1317657 on v6.11-rc1, 1245055 (-5.5%) with the mgtime series that made two seqcount passes; the merged v9 costs under 1%.", "", "", textWidth)
	if r.Rounds < stats.MinForCI {
		fmt.Fprintf(&b, "\n%d rounds are too few for confidence intervals; run at least %d (-count).\n", r.Rounds, stats.MinForCI)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
