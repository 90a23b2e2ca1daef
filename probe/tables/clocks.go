package tables

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/stats"
)

// Clocks writes a clock measurement for people: per row the median
// cost of a call with its interval and the 2018 figure beside it, the
// coarse clock's saving against the fine one, and why rows are missing.
func Clocks(w io.Writer, r *probe.ClockResult) error {
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
	if share, ok := r.VDSOFallback(); ok {
		cs := r.Clocksource
		if cs == "" {
			cs = "unknown"
		}
		fmt.Fprintf(&b, "\nThe vDSO's fine read costs %.0f%% of the system call: the clocksource (%s) seems to have no vDSO mode, so the vDSO falls back to the system call.\n", 100*share, cs)
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

// coarseSavings writes the run's coarse savings (ClockResult.CoarseSavings)
// as table rows under a header.
func coarseSavings(r *probe.ClockResult) [][]string {
	// "ns/call" is the note's: a header no wider than its column keeps
	// the table to 80 columns.
	rows := [][]string{{"call", "via", "fine → coarse", "change", "2018*"}}
	for _, p := range r.CoarseSavings() {
		c := p.Comparison
		change := fmt.Sprintf("%s (p=%.3f)", c.DeltaString(), c.P)
		if !c.Significant() {
			change = fmt.Sprintf("~ (p=%.3f, %s)", c.P, stats.MDEPercent(c.MDE))
		}
		ref := "-"
		if p.Coarse.Reference > 0 && p.Fine.Reference > 0 {
			ref = fmt.Sprintf("%+.0f%%", 100*(p.Coarse.Reference/p.Fine.Reference-1))
		}
		fm, cm := stats.Summarize(p.Fine.Samples).Median, stats.Summarize(p.Coarse.Samples).Median
		rows = append(rows, []string{p.Fine.Call, p.Fine.Via, fmt.Sprintf("%.2f → %.2f", fm, cm), change, ref})
	}
	return rows
}
