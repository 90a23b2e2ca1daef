package pages

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/probe/host"
	"github.com/mglayout/mglayout/probe/stats"
	"github.com/mglayout/mglayout/probe/tables"
)

// width is the width of the text report: it goes into mails to mailing
// lists.
const width = 80

// Text writes the report as plain text of at most 80 columns.
func Text(w io.Writer, r *report.Report) error {
	var b strings.Builder
	title := fmt.Sprintf("mglayout report, %s", r.Started.Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "%s\n%s\n\n", title, strings.Repeat("=", len(title)))
	if !r.Complete {
		para(&b, "INCOMPLETE: "+r.Incomplete)
		b.WriteString("\n")
	}
	b.WriteString("Conclusions\n-----------\n")
	for _, c := range r.Conclusions {
		para(&b, c.Text+".")
	}
	b.WriteString("\n")
	hostText(r, &b)

	b.WriteString("\nVerdicts\n--------\n")
	for _, v := range r.Verdicts {
		para(&b, fmt.Sprintf("%s -> %s at %d B: static %s.", v.Old, v.New, v.Line, strings.ToUpper(v.Static)))
		for _, m := range v.Measured {
			para(&b, fmt.Sprintf("  measured (%s) for %s: %s (%s).%s", m.Probe, m.Path, m.Shown(), m.Evidence(), predictionText(m)))
		}
		if len(v.Measured) == 0 {
			para(&b, "  not measured at this line size.")
		}
	}

	b.WriteString("\nLayouts\n-------\n")
	for _, s := range r.Layouts.Structs {
		var lines []string
		for _, l := range r.Lines {
			n := s.Lines[fmt.Sprint(l)]
			lines = append(lines, fmt.Sprintf("%d %s at %d B", n, map[bool]string{true: "line", false: "lines"}[n == 1], l))
		}
		holes := s.HoleCount()
		text := fmt.Sprintf("%s: %d bytes, aligned to %d, %s; %d %s, %d bytes of tail padding.",
			s.Name, s.Size, s.Align, strings.Join(lines, ", "), holes, map[bool]string{true: "hole", false: "holes"}[holes == 1], s.TailPadding)
		if p := render.PlacementText(s, r.Lines); p != "" {
			text += " " + p
		}
		para(&b, text)
	}

	b.WriteString("\nChecks\n------\n")
	for _, c := range r.Checks.Objects {
		state := "no false sharing at any line size or phase"
		if c.FalseSharing {
			state = "FALSE SHARING at some line size or phase"
		}
		para(&b, fmt.Sprintf("%s: %s.", c.Name, state))
	}

	if r.Sweep != nil {
		b.WriteString("\nInterference sweep\n------------------\n")
		fmt.Fprintf(&b, "%-9s %-17s %-17s\n", "distance", "writer ops/s", "reader ops/s")
		for _, p := range append(r.Sweep.Points, r.Sweep.Far) {
			fmt.Fprintf(&b, "%-9d %-17s %-17s\n", p.Distance, statText(p.Writer), statText(p.Reader))
		}
		para(&b, r.Sweep.Verdict)
	}

	if r.Clocks != nil {
		b.WriteString("\nClock reads\n-----------\n")
		if err := tables.Clocks(&b, r.Clocks); err != nil {
			return err
		}
	}
	if r.Kernel != nil {
		b.WriteString("\nThe running kernel\n------------------\n")
		// The table names the kernel and its nearest model.
		if err := tables.Kernel(&b, r.Kernel); err != nil {
			return err
		}
	}

	for _, p := range r.Probes {
		head := fmt.Sprintf("Probe: %s, %s %d-byte lines", p.Title, p.Mode, p.Line)
		fmt.Fprintf(&b, "\n%s\n%s\n", head, strings.Repeat("-", min(len(head), width)))
		if p.Mode == "emulated" {
			para(&b, fmt.Sprintf("Emulated on this host's %d-byte lines: each target line's accessed words packed into a host line of its own.", p.HostLine))
		}
		if p.Skipped != "" {
			para(&b, "Not run: "+p.Skipped)
			continue
		}
		para(&b, fmt.Sprintf("%d rounds of %.0f ms, interleaved.", p.Rounds, 1000*p.Seconds))
		casesText(p, &b)
	}
	_, err := io.WriteString(w, fit(b.String()))
	return err
}

// fit wraps every line longer than the report's width at spaces,
// indenting the continuation, so that tables written by other renderers
// keep to 80 columns too.
func fit(text string) string {
	var out strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		nl := strings.HasSuffix(line, "\n")
		line = strings.TrimSuffix(line, "\n")
		for utf8.RuneCountInString(line) > width {
			cut := breakAt(line)
			if cut <= 0 {
				break
			}
			indent := len(line) - len(strings.TrimLeft(line, " "))
			out.WriteString(strings.TrimRight(line[:cut], " ") + "\n")
			line = strings.Repeat(" ", indent+4) + strings.TrimLeft(line[cut:], " ")
		}
		out.WriteString(line)
		if nl {
			out.WriteString("\n")
		}
	}
	return out.String()
}

// breakAt returns the byte index of the last space at or before the
// width, or -1.
func breakAt(line string) int {
	last, runes := -1, 0
	for i, r := range line {
		if runes > width {
			break
		}
		if r == ' ' && i > 0 && strings.TrimSpace(line[:i]) != "" {
			last = i
		}
		runes++
	}
	return last
}

func hostText(r *report.Report, b *strings.Builder) {
	info := r.Host.Info
	para(b, fmt.Sprintf("Host: %s (%s/%s), kernel %s, CPUs %s.", info.CPUID.Brand, info.GOOS, info.GOARCH,
		orDash(r.Host.Kernel), host.FormatCPUList(info.Affinity)))
	var caches []string
	for _, c := range info.Caches {
		caches = append(caches, fmt.Sprintf("L%d %s %d B (%s)", c.Level, strings.ToLower(c.Type), c.Line.Bytes, c.Line.Source))
	}
	para(b, "Line sizes: "+strings.Join(caches, ", ")+".")
	para(b, fmt.Sprintf("Budget %.0f s, used %.1f s.", r.Budget, r.Seconds))
}

func statText(s report.Stat) string {
	if s.N == 0 {
		return "-"
	}
	text := textfmt.SI(s.Median)
	if s.N >= stats.MinForCI && s.Median != 0 {
		half := math.Max(s.Hi/s.Median-1, 1-s.Lo/s.Median)
		if half > 1 {
			// An interval wider than the figure: no figure.
			return fmt.Sprintf("too noisy to tell (±%.0f%%)", 100*half)
		}
		text += fmt.Sprintf(" ± %.0f%%", 100*half)
	}
	return text
}

// para writes text wrapped at the report's width.
func para(b *strings.Builder, text string) {
	indent := ""
	for strings.HasPrefix(text, " ") {
		indent += " "
		text = text[1:]
	}
	line := indent
	for _, word := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = indent + "  "
		}
		if len(line) > len(indent) && !strings.HasSuffix(line, " ") {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
}

// casesText writes a probe's measurements path by path: a table of the
// variants' rates beside the writers and alone, with what the static
// analysis predicted, then the comparisons of that path in sentences.
func casesText(p *report.Probe, b *strings.Builder) {
	var paths []string
	for _, c := range p.Cases {
		if !slices.Contains(paths, c.Path) {
			paths = append(paths, c.Path)
		}
	}
	for _, path := range paths {
		fmt.Fprintf(b, "\n%s:\n", path)
		rows := [][]string{{"variant", "with writers", "alone", "predicted"}}
		var variants []string
		for _, c := range p.Cases {
			if c.Path == path && !slices.Contains(variants, c.Variant) {
				variants = append(variants, c.Variant)
			}
		}
		for _, v := range variants {
			row := []string{v, "-", "-", "-"}
			for _, c := range p.Cases {
				if c.Path == path && c.Variant == v {
					row[map[bool]int{true: 1, false: 2}[c.Writers]] = statText(c.Stat)
				}
			}
			for _, pr := range p.Predicted {
				if pr.Path == path && pr.Variant == v {
					row[3] = predictedText(pr)
				}
			}
			rows = append(rows, row)
		}
		var t strings.Builder
		textfmt.Table(&t, "  ", rows)
		b.WriteString(t.String())
		for _, c := range p.Comparisons {
			if c.Path == path {
				para(b, fmt.Sprintf("  %s vs %s: %s (%s).", c.New, c.Old, c.Shown(), c.Evidence()))
			}
		}
	}
}

// text is a prediction in a few words: "2 lines, 1 shared".
func predictedText(pr report.PredictedRow) string {
	lines := fmt.Sprintf("%d %s", pr.Lines, map[bool]string{true: "line", false: "lines"}[pr.Lines == 1])
	if len(pr.Shared) == 0 {
		return lines + ", none shared"
	}
	return fmt.Sprintf("%s, %d shared", lines, len(pr.Shared))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// predictionText sets a verdict's measurement beside the prediction: "
// Predicted: ...", flagged where they disagree.
func predictionText(c report.Comparison) string {
	if c.Predicted == "" {
		return ""
	}
	s := " Predicted: " + c.Predicted + "."
	if c.Disagrees {
		s += " DISAGREES with the measurement."
	}
	return s
}
