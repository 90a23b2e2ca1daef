package pages

import (
	"fmt"
	"io"
	"strings"

	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/probe/host"
	"github.com/mglayout/mglayout/probe/tables"
)

// Markdown writes the report for a pull request or a patch discussion.
func Markdown(w io.Writer, r *report.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## mglayout report, %s\n\n", r.Started.Format("2006-01-02 15:04 MST"))
	if !r.Complete {
		fmt.Fprintf(&b, "> **Incomplete:** %s\n\n", r.Incomplete)
	}
	b.WriteString("### Conclusions\n\n")
	for _, c := range r.Conclusions {
		fmt.Fprintf(&b, "- %s.\n", c.Text)
	}
	b.WriteString("\n")
	info := r.Host.Info
	fmt.Fprintf(&b, "**Host:** %s (%s/%s), kernel `%s`, CPUs %s, native line %d B. Budget %.0f s, used %.1f s.\n\n",
		info.CPUID.Brand, info.GOOS, info.GOARCH, orDash(r.Host.Kernel), host.FormatCPUList(info.Affinity), r.Host.Line, r.Budget, r.Seconds)

	b.WriteString("### Verdicts\n\n| change | line | static | measured |\n|---|---:|---|---|\n")
	for _, v := range r.Verdicts {
		var ms []string
		for _, m := range v.Measured {
			ms = append(ms, fmt.Sprintf("%s `%s`: %s (%s).%s", m.Probe, m.Path, m.Shown(), m.Evidence(), predictionText(m)))
		}
		if len(ms) == 0 {
			ms = []string{"not measured"}
		}
		fmt.Fprintf(&b, "| `%s` → `%s` | %d B | **%s** | %s |\n", v.Old, v.New, v.Line, v.Static, strings.Join(ms, "<br>"))
	}

	b.WriteString("\n### Layouts\n\n| struct | size | align |")
	for _, l := range r.Lines {
		fmt.Fprintf(&b, " lines at %d B |", l)
	}
	b.WriteString(" holes | tail padding | false sharing |\n|---|---:|---:|")
	for range r.Lines {
		b.WriteString("---:|")
	}
	b.WriteString("---:|---:|---|\n")
	for i, s := range r.Layouts.Structs {
		fmt.Fprintf(&b, "| `%s` | %d | %d |", s.Name, s.Size, s.Align)
		for _, l := range r.Lines {
			fmt.Fprintf(&b, " %d |", s.Lines[fmt.Sprint(l)])
		}
		fs := "no"
		if i < len(r.Checks.Objects) && r.Checks.Objects[i].FalseSharing {
			fs = "**yes**"
		}
		fmt.Fprintf(&b, " %d | %d | %s |\n", len(s.Holes), s.TailPadding, fs)
	}
	for _, s := range r.Layouts.Structs {
		if p := render.PlacementText(s, r.Lines); p != "" {
			fmt.Fprintf(&b, "\n`%s`: %s\n", s.Name, p)
		}
	}

	if r.Sweep != nil {
		b.WriteString("\n### Interference sweep\n\n| distance | writer ops/s | reader ops/s |\n|---:|---:|---:|\n")
		for _, p := range append(r.Sweep.Points, r.Sweep.Far) {
			fmt.Fprintf(&b, "| %d | %s | %s |\n", p.Distance, statText(p.Writer), statText(p.Reader))
		}
		fmt.Fprintf(&b, "\n%s\n", r.Sweep.Verdict)
	}

	if r.Clocks != nil {
		b.WriteString("\n### Clock reads\n\n```\n")
		if err := tables.Clocks(&b, r.Clocks); err != nil {
			return err
		}
		b.WriteString("```\n")
	}
	if r.Kernel != nil {
		fmt.Fprintf(&b, "\n### The running kernel\n\nKernel `%s`, nearest model `%s`. %s\n\n```\n", r.Kernel.Release, r.Kernel.Model, r.Kernel.ModelNote)
		if err := tables.Kernel(&b, r.Kernel); err != nil {
			return err
		}
		b.WriteString("```\n")
	}

	for _, p := range r.Probes {
		fmt.Fprintf(&b, "\n### Probe: %s, %s %d-byte lines\n\n", p.Title, p.Mode, p.Line)
		if p.Skipped != "" {
			fmt.Fprintf(&b, "Not run: %s\n", p.Skipped)
			continue
		}
		b.WriteString("| variant | path | writers | ops/s |\n|---|---|---|---:|\n")
		for _, c := range p.Cases {
			with := "beside"
			if !c.Writers {
				with = "alone"
			}
			fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", c.Variant, c.Path, with, statText(c.Stat))
		}
		if len(p.Comparisons) > 0 {
			// A comparison is of two variants, or of one beside its
			// writers against alone: "measured" against "baseline".
			b.WriteString("\n| path | measured | against | change | evidence |\n|---|---|---|---:|---|\n")
			for _, c := range p.Comparisons {
				fmt.Fprintf(&b, "| `%s` | `%s` | `%s` | %s | %s |\n", c.Path, c.New, c.Old, c.Shown(), c.Evidence())
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
