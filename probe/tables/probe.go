package tables

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/stats"
)

// Sweep writes a sweep for people: per distance the writer's and the
// reader's rate with their confidence intervals and the writer's change
// against the far control, then the interference distance.
func Sweep(w io.Writer, r *probe.SweepResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "sweep: writer (atomic add) on CPU %d, reader (atomic load) on CPU %d, %d rounds, interleaved", r.CPUs[0], r.CPUs[1], r.Rounds)
	if r.Interrupted {
		b.WriteString("\nINCOMPLETE: interrupted; the rounds completed are shown.")
	}
	b.WriteString("\n\n")
	if r.Rounds == 0 {
		b.WriteString("no round completed: nothing to show.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	in := r.Interference()
	rows := [][]string{{"distance", "writer ops/s", "reader ops/s", "writer vs far"}}
	for i, p := range append(slices.Clone(r.Points), r.Far) {
		ws, rs := stats.Summarize(p.Writer), stats.Summarize(p.Reader)
		vs := "(control)"
		if p != r.Far {
			vs = compared(in.Comparisons[i])
		}
		rows = append(rows, []string{fmt.Sprint(p.Distance), rate(ws), rate(rs), vs})
	}
	textfmt.Table(&b, "", rows)
	switch {
	case r.Rounds < stats.MinForCI:
		fmt.Fprintf(&b, "\n%d rounds are too few for confidence intervals; run at least %d (-count).\n", r.Rounds, stats.MinForCI)
	default:
		b.WriteString("\n")
		for _, line := range textfmt.Wrap(in.Verdict(r.Rounds, r.Points[len(r.Points)-1].Distance), 100) {
			b.WriteString(line + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// compared writes a comparison as "-12.34% p=0.000 n=10", or for no
// significant change with what it could have seen, "~ p=0.970 n=10, no
// change larger than ±6%".
func compared(c stats.Comparison) string {
	s := c.DeltaString() + " " + c.PString()
	if !c.Significant() {
		s += ", " + c.MDEString()
	}
	return s
}

// rate writes a summary as "25.6M ± 2%".
func rate(s stats.Summary) string {
	if s.N == 0 {
		return "-"
	}
	return textfmt.SI(s.Median) + " ± " + s.RangePct()
}

// Probe writes an experiment for people: per path and variant the
// rate beside the writers and alone with their intervals, the change
// between them, what the static analysis predicted, and for two or more
// variants the change of each against the first. The tests are one
// family (Comparisons).
func Probe(w io.Writer, r *probe.Result, predicted probe.Predictions) error {
	var b strings.Builder
	o := r.Options
	mode := fmt.Sprintf("native %d-byte lines", o.Line)
	if o.Emulate > 0 {
		mode = fmt.Sprintf("EMULATED %d-byte lines on this host's %d-byte lines (each target line's accessed bytes packed into a host line of its own, %d bytes apart)", o.Emulate, o.HostLine, o.Spacing)
	}
	writers := "writers at their own rates"
	if o.Stress {
		writers = "writers unthrottled (-stress)"
	}
	fmt.Fprintf(&b, "probe: %s; %s; %d rounds of %v, interleaved; CPUs %v\n", mode, writers, r.Rounds, o.Duration, r.CPUs)
	if r.Interrupted {
		b.WriteString("INCOMPLETE: interrupted; the rounds completed are shown.\n")
	}
	if r.Rounds == 0 {
		b.WriteString("no round completed: nothing to show.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	var variants []string
	for _, c := range r.Cases {
		if !slices.Contains(variants, c.Variant) {
			variants = append(variants, c.Variant)
		}
	}
	var paths []*access.Path
	for _, c := range r.Cases {
		if !slices.ContainsFunc(paths, func(p *access.Path) bool { return p.Name == c.Path.Name }) {
			paths = append(paths, c.Path)
		}
	}
	cs := r.Comparisons()
	for _, p := range paths {
		n := 0
		if c := r.Find(variants[0], p.Name, false); c != nil {
			n = c.CPUs
		}
		fmt.Fprintf(&b, "\n%s (measured on %d %s beside the writers, unthrottled)\n", p.Name, n, textfmt.Plural(n, "CPU", "CPUs"))
		rows := [][]string{{"variant", "with writers ops/s", "alone ops/s", "with writers vs alone", "predicted"}}
		for _, v := range variants {
			with, alone := r.Find(v, p.Name, false), r.Find(v, p.Name, true)
			if with == nil {
				continue
			}
			aloneRate := "-"
			if alone != nil {
				aloneRate = rate(stats.Summarize(alone.Samples))
			}
			vs := "-"
			c := probe.ComparisonOf(cs, p.Name, v+" alone", v)
			if c != nil {
				vs = compared(c.Comparison)
			}
			pred := ""
			if pr := predicted.Of(v, p.Name); pr != nil {
				pred = fmt.Sprintf("%d %s; %s", pr.Lines, textfmt.Plural(pr.Lines, "line", "lines"), sharedText(pr))
				switch pr.Disagreement(c) {
				case probe.SlowerUnshared:
					pred += " [DISAGREES: slower beside the writers though no line is shared]"
				case probe.SharedNoSlowdown:
					pred += " [DISAGREES: a hot writer shares a line, yet no slowdown]"
				}
			}
			rows = append(rows, []string{v, rate(stats.Summarize(with.Samples)), aloneRate, vs, pred})
		}
		var sb strings.Builder
		textfmt.Table(&sb, "", rows)
		for _, v := range variants[1:] {
			if c := probe.ComparisonOf(cs, p.Name, variants[0], v); c != nil {
				fmt.Fprintf(&sb, "%s vs %s, with writers: %s\n", v, variants[0], compared(c.Comparison))
			}
		}
		for _, line := range strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n") {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}
	if r.Rounds < stats.MinForCI {
		fmt.Fprintf(&b, "\n%d rounds are too few for confidence intervals; run at least %d (-count).\n", r.Rounds, stats.MinForCI)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func sharedText(p *probe.Prediction) string {
	if len(p.Shared) == 0 {
		return "shares no line with a writer"
	}
	return strings.Join(p.Shared, "; ")
}
