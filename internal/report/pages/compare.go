package pages

import (
	"fmt"
	"io"
	"strings"

	"github.com/mglayout/mglayout/internal/report"
)

// CompareText writes the merged table and the overall verdict.
func CompareText(w io.Writer, m *report.Merged) error {
	var b strings.Builder
	b.WriteString("Machines:\n")
	for _, mc := range m.Machines {
		info := mc.Report.Host.Info
		var lines []string
		for _, c := range info.Caches {
			lines = append(lines, fmt.Sprintf("L%d %d", c.Level, c.Line.Bytes))
		}
		state := ""
		if !mc.Report.Complete {
			state = " INCOMPLETE"
		}
		para(&b, fmt.Sprintf("  %s: %s — %s (%s/%s), kernel %s, lines %s, native %d B%s", mc.Label, mc.File, info.CPUID.Brand,
			info.GOOS, info.GOARCH, orDash(mc.Report.Host.Kernel), strings.Join(lines, ", "), mc.Report.Host.Line, state))
	}
	b.WriteString("\nChanges (measured: new vs old, '~' when not significant):\n")
	for _, r := range m.Rows {
		path := r.Path
		if path == "" {
			path = "(no path measured)"
		}
		para(&b, fmt.Sprintf("%s → %s, %s at %d B: static %s", r.Old, r.New, path, r.Line, r.Static))
		for _, mc := range m.Machines {
			cs := r.Measured[mc.Label]
			if len(cs) == 0 {
				para(&b, fmt.Sprintf("    %s: not measured", mc.Label))
				continue
			}
			for _, c := range cs {
				para(&b, fmt.Sprintf("    %s: %s (%s; %s)", mc.Label, c.Shown(), c.Evidence(), c.Probe))
			}
		}
	}
	if len(m.Kernels) > 0 {
		b.WriteString("\nThe running kernel (same machine, pipe workloads, new kernel vs old):\n")
		for _, k := range m.Kernels {
			para(&b, fmt.Sprintf("  %s: %s (%s) vs %s (%s): %s (%s)", k.Workload, k.NewMachine, k.NewRelease, k.OldMachine, k.OldRelease, k.Text, k.Evidence()))
		}
	}
	b.WriteString("\nVerdict: ")
	if regs := m.Regressions(); len(regs) > 0 {
		b.WriteString("REGRESSION on some machine:\n")
		for _, r := range regs {
			para(&b, "  "+r)
		}
	} else {
		b.WriteString("no significant regression measured on any machine.\n")
		var parts []string
		for _, mc := range m.Machines {
			parts = append(parts, fmt.Sprintf("%s (%s, native %d B)", mc.Label, mc.Report.Host.Info.GOARCH, mc.Report.Host.Line))
		}
		para(&b, "  Measured on "+strings.Join(parts, ", ")+".")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
