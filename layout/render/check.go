package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
)

// CheckText writes the analysis for people: per object, its paths, a
// table of the lines each path touches in every case (line size and
// phase), then where writers meet other paths, true or false, and which
// lines it shares with unknown neighbours, ending with a verdict.
func CheckText(w io.Writer, a *sharing.Analysis) error {
	var b strings.Builder
	for i := range a.Objects {
		if i > 0 {
			b.WriteString("\n")
		}
		checkObject(&b, &a.Objects[i], a.Lines)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func checkObject(b *strings.Builder, oa *sharing.ObjectAnalysis, lines []int64) {
	s := oa.Object.Layout
	fmt.Fprintf(b, "%s (%s, %s): %d bytes, aligned to %d\n", s.Name, s.Source, s.Arch, s.Size, s.Align)
	for _, l := range lines {
		var phases []string
		for _, c := range oa.Cases {
			if c.Line == l {
				phases = append(phases, fmt.Sprint(c.Phase))
			}
		}
		fmt.Fprintf(b, "  %d B lines: %s %s (%s)\n", l, plural(len(phases), "phase", "phases"), strings.Join(phases, ", "), oa.PhaseReasons[l])
	}
	if len(oa.Object.Paths) == 0 {
		b.WriteString("\n  no access paths: nothing is written concurrently, so nothing is shared.\n")
		return
	}

	b.WriteString("\npaths:\n")
	for _, p := range oa.Object.Paths {
		fmt.Fprintf(b, "  %s (%s)", p.Name, cpusRate(p))
		if cite := citation(p.Doc); cite != "" {
			fmt.Fprintf(b, ": %s", cite)
		}
		b.WriteString("\n")
		for _, line := range wrap(accessSummary(p), 72) {
			fmt.Fprintf(b, "      %s\n", line)
		}
	}

	// The lines each path touches, a column per case.
	b.WriteString("\nlines touched (line 0 holds the first byte):\n")
	header := []string{"path"}
	for _, c := range oa.Cases {
		header = append(header, fmt.Sprintf("%d B/%d", c.Line, c.Phase))
	}
	rows := [][]string{header}
	for pi, p := range oa.Object.Paths {
		row := []string{p.Name}
		for _, c := range oa.Cases {
			f := c.Paths[pi]
			cell := compactList(f.Lines)
			if c.Line < 128 && len(f.Lines) > 0 {
				cell += fmt.Sprintf(" [%d×128]", f.Blocks128)
			}
			if len(f.FalseLines) > 0 {
				cell += " !"
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	writeTable(b, "  ", rows)
	b.WriteString("  (B/phase: line size and the object's offset in its first line; [n×128]: 128-byte\n   blocks touched, the pairs the adjacent-line prefetcher fetches; !: false sharing)\n")

	var falseCases []string
	for ci := range oa.Cases {
		c := &oa.Cases[ci]
		fmt.Fprintf(b, "\nsharing at %d B, phase %d:\n", c.Line, c.Phase)
		any := false
		for _, ls := range c.Lines {
			if lineReport(b, oa, c, &ls) {
				any = true
			}
		}
		if !any {
			b.WriteString("  no line is shared between a writer and another path.\n")
		}
		if c.FalseWeight() > 0 {
			falseCases = append(falseCases, fmt.Sprintf("%d B phase %d", c.Line, c.Phase))
		}
	}

	b.WriteString("\nverdict: ")
	if len(falseCases) == 0 {
		b.WriteString("no false sharing at any line size or phase; every shared line is shared truly,\n  and padding cannot remove true sharing.\n")
	} else {
		fmt.Fprintf(b, "false sharing at %s.\n", strings.Join(falseCases, ", "))
	}
	for _, l := range lines {
		if worst := oa.Worst(l); worst != nil && len(oa.Cases) > 1 {
			fmt.Fprintf(b, "  worst phase at %d B: %d (%d lines touched by all paths together", l, worst.Phase, linesTouched(worst))
			if fw := worst.FalseWeight(); fw > 0 {
				fmt.Fprintf(b, ", %d false-sharing pairs", len(worst.FalsePairs()))
			}
			b.WriteString(")\n")
		}
	}
}

// lineReport writes what happens on one line, if anything is shared or
// exposed there, and reports whether it wrote anything.
func lineReport(b *strings.Builder, oa *sharing.ObjectAnalysis, c *sharing.Case, ls *sharing.LineShare) bool {
	wrote := false
	byWriter := map[string][]sharing.Pair{}
	var writers []string
	for _, p := range ls.Pairs {
		if _, ok := byWriter[p.Writer]; !ok {
			writers = append(writers, p.Writer)
		}
		byWriter[p.Writer] = append(byWriter[p.Writer], p)
	}
	for _, w := range writers {
		wp := pathNamed(oa.Object.Paths, w)
		var trues, falses, self []string
		for _, p := range byWriter[w] {
			switch {
			case p.Other == w:
				self = append(self, p.Other)
			case p.True:
				trues = append(trues, fmt.Sprintf("%s (%s)", p.Other, compactMembers(p.Members)))
			default:
				falses = append(falses, fmt.Sprintf("%s (%s)", p.Other, compactMembers(p.Members)))
			}
		}
		fmt.Fprintf(b, "  line %d: %s (%s) writes it", ls.Index, w, cpusRate(wp))
		if len(self) > 0 {
			b.WriteString(" from several CPUs at once: contended")
		}
		b.WriteString("\n")
		for _, t := range trues {
			for i, line := range wrap("true sharing with "+t, 70) {
				fmt.Fprintf(b, "    %s%s\n", strings.Repeat("  ", min(i, 1)), line)
			}
		}
		for _, f := range falses {
			for i, line := range wrap("FALSE sharing with "+f+": it touches nothing "+w+" writes here", 70) {
				fmt.Fprintf(b, "    %s%s\n", strings.Repeat("  ", min(i, 1)), line)
			}
		}
		wrote = true
	}
	if ls.Exposed() && len(ls.Touchers) > 0 {
		var where []string
		if ls.ExposedBefore > 0 {
			where = append(where, fmt.Sprintf("%d bytes before the object", ls.ExposedBefore))
		}
		if ls.ExposedAfter > 0 {
			after := "after it"
			if oa.Object.Layout.PaddedTo > 0 {
				after = fmt.Sprintf("after it and its padding to %d", oa.Object.Layout.PaddedTo)
			}
			where = append(where, fmt.Sprintf("%d bytes %s", ls.ExposedAfter, after))
		}
		fmt.Fprintf(b, "  line %d also holds unknown neighbours: %s\n", ls.Index, strings.Join(where, ", "))
		if len(ls.Writers) > 0 {
			fmt.Fprintf(b, "    %s dirty a neighbour's line (false sharing for whatever lives there)\n", strings.Join(ls.Writers, ", "))
		}
		if readers := without(ls.Touchers, ls.Writers); len(readers) > 0 {
			fmt.Fprintf(b, "    a neighbour's writes would evict the line from %s\n", strings.Join(readers, ", "))
		}
		wrote = true
	}
	return wrote
}

func without(all, drop []string) []string {
	var out []string
	for _, x := range all {
		if !slices.Contains(drop, x) {
			out = append(out, x)
		}
	}
	return out
}

func pathNamed(paths []*access.Path, name string) *access.Path {
	for _, p := range paths {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func linesTouched(c *sharing.Case) int {
	n := 0
	for _, f := range c.Paths {
		n += len(f.Lines)
	}
	return n
}

func cpusRate(p *access.Path) string {
	cpus := "all CPUs"
	if p.CPUs != access.AllCPUs {
		cpus = fmt.Sprintf("%d %s", p.CPUs, plural(p.CPUs, "CPU", "CPUs"))
	}
	return cpus + ", " + p.RateString()
}

// accessSummary writes a path's accesses compactly:
// "seqread seq; read timekeeper.tkr_mono.{mult,shift}".
func accessSummary(p *access.Path) string {
	var parts []string
	for i := 0; i < len(p.Accesses); {
		op := p.Accesses[i].Op
		var members []string
		for ; i < len(p.Accesses) && p.Accesses[i].Op == op; i++ {
			members = append(members, p.Accesses[i].Member)
		}
		parts = append(parts, op.String()+" "+compactMembers(members))
	}
	return strings.Join(parts, "; ")
}

// compactMembers joins member paths, writing consecutive siblings once
// under their parent: seq, timekeeper.tkr_mono.{mult,shift}.
func compactMembers(members []string) string {
	var parts []string
	for i := 0; i < len(members); {
		parent, _ := splitLast(members[i])
		j := i + 1
		for j < len(members) {
			if p, _ := splitLast(members[j]); p != parent || parent == "" {
				break
			}
			j++
		}
		if j-i == 1 {
			parts = append(parts, members[i])
		} else {
			var names []string
			for _, m := range members[i:j] {
				_, name := splitLast(m)
				names = append(names, name)
			}
			parts = append(parts, parent+".{"+strings.Join(names, ",")+"}")
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

func splitLast(member string) (parent, name string) {
	if i := strings.LastIndex(member, "."); i >= 0 {
		return member[:i], member[i+1:]
	}
	return "", member
}

// citation is the part of a path's doc before its first colon: the
// function, file and version.
func citation(doc string) string {
	cite, _, _ := strings.Cut(doc, ": ")
	return strings.Join(strings.Fields(cite), " ")
}

// compactList writes line indexes with runs as ranges: 0-2,4.
func compactList(xs []int64) string {
	if len(xs) == 0 {
		return "-"
	}
	var parts []string
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", xs[i], xs[j]))
		} else {
			parts = append(parts, fmt.Sprint(xs[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// writeTable writes rows with columns padded to their widest cell.
func writeTable(b *strings.Builder, indent string, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		b.WriteString(indent)
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
			} else {
				fmt.Fprintf(b, "%s%s  ", c, strings.Repeat(" ", widths[i]-len([]rune(c))))
			}
		}
		b.WriteString("\n")
	}
}
