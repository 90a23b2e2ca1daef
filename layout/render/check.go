package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout"
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
	if len(a.Objects) > 1 {
		acrossObjects(&b, a)
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
		for i, line := range textfmt.Wrap(fmt.Sprintf("%d B lines: %s %s (%s)", l, textfmt.Plural(len(phases), "phase", "phases"), strings.Join(phases, ", "), oa.PhaseReasons[l]), 76) {
			fmt.Fprintf(b, "  %s%s\n", strings.Repeat("  ", min(i, 1)), line)
		}
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
		for _, line := range textfmt.Wrap(accessSummary(p), 72) {
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
			cell := textfmt.Ranges(f.Lines)
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
	textfmt.Table(b, "  ", rows)
	b.WriteString("  (B/phase: line size and the object's offset in its first line; [n×128]: 128-byte\n   blocks touched, the pairs the adjacent-line prefetcher fetches; !: false sharing)\n")

	// Cases of one line size whose reports read the same are printed
	// once: a Go object may start at eight phases with the same story.
	falseAt := map[int64][]string{}
	for _, l := range lines {
		var group []*sharing.Case
		var body string
		flush := func() {
			if len(group) == 0 {
				return
			}
			var phases []string
			for _, c := range group {
				phases = append(phases, fmt.Sprint(c.Phase))
			}
			fmt.Fprintf(b, "\nsharing at %d B, %s %s:\n%s", l, textfmt.Plural(len(phases), "phase", "phases"), strings.Join(phases, ", "), body)
			exposureReport(b, oa, group)
			group = nil
		}
		for ci := range oa.Cases {
			c := &oa.Cases[ci]
			if c.Line != l {
				continue
			}
			if c.FalseWeight() > 0 {
				falseAt[l] = append(falseAt[l], fmt.Sprint(c.Phase))
			}
			if r := pairsReport(oa, c); len(group) == 0 || r != body {
				flush()
				body = r
			}
			group = append(group, c)
		}
		flush()
	}

	var falseCases []string
	for _, l := range lines {
		if ps := falseAt[l]; len(ps) > 0 {
			falseCases = append(falseCases, fmt.Sprintf("%d B (%s %s)", l, textfmt.Plural(len(ps), "phase", "phases"), strings.Join(ps, ", ")))
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
			fmt.Fprintf(b, "  worst phase at %d B: %d (%d lines touched by all paths together", l, worst.Phase, worst.LinesTouched())
			if fw := worst.FalseWeight(); fw > 0 {
				n := len(worst.FalsePairs())
				fmt.Fprintf(b, ", %d false-sharing %s", n, textfmt.Plural(n, "pair", "pairs"))
			}
			b.WriteString(")\n")
		}
	}
}

// acrossObjects writes what holds between objects checked together: at
// which line sizes they can share a line at all, and the paths that touch
// several of them, with their total lines.
func acrossObjects(b *strings.Builder, a *sharing.Analysis) {
	var names []string
	for _, oa := range a.Objects {
		names = append(names, oa.Object.Layout.Name)
	}
	fmt.Fprintf(b, "\nacross %s:\n", strings.Join(names, ", "))
	for _, l := range a.Lines {
		var exposed []string
		for _, oa := range a.Objects {
			var phases []string
			for _, c := range oa.Cases {
				if c.Line == l && slices.ContainsFunc(c.Lines, func(ls sharing.LineShare) bool { return ls.Exposed() && len(ls.Touchers) > 0 }) {
					phases = append(phases, fmt.Sprint(c.Phase))
				}
			}
			if len(phases) > 0 {
				exposed = append(exposed, fmt.Sprintf("%s at %s %s", oa.Object.Layout.Name, textfmt.Plural(len(phases), "phase", "phases"), strings.Join(phases, ", ")))
			}
		}
		text := fmt.Sprintf("%d B: separate objects meet on a line only as neighbours, and ", l)
		if len(exposed) == 0 {
			text += "none of these shares a line it touches with anything outside it: no writer of one meets a path of another."
		} else {
			text += "only these share touched lines with unknown neighbours: " + strings.Join(exposed, "; ") + " (see above)."
		}
		for i, line := range textfmt.Wrap(text, 74) {
			fmt.Fprintf(b, "  %s%s\n", strings.Repeat("  ", min(i, 1)), line)
		}
	}
	// Paths by name across objects.
	type part struct {
		object   string
		min, max map[int64]int
	}
	byPath := map[string][]part{}
	var order []string
	for _, oa := range a.Objects {
		for pi, p := range oa.Object.Paths {
			if p.Inferred {
				continue // inferred paths of different types are different code
			}
			pt := part{object: oa.Object.Layout.Name, min: map[int64]int{}, max: map[int64]int{}}
			for _, c := range oa.Cases {
				n := len(c.Paths[pi].Lines)
				if cur, ok := pt.min[c.Line]; !ok || n < cur {
					pt.min[c.Line] = n
				}
				pt.max[c.Line] = max(pt.max[c.Line], n)
			}
			if _, ok := byPath[p.Name]; !ok {
				order = append(order, p.Name)
			}
			byPath[p.Name] = append(byPath[p.Name], pt)
		}
	}
	for _, name := range order {
		parts := byPath[name]
		if len(parts) < 2 {
			continue
		}
		var cells []string
		for _, l := range a.Lines {
			lo, hi := 0, 0
			var terms []string
			for _, pt := range parts {
				lo += pt.min[l]
				hi += pt.max[l]
				terms = append(terms, rangeText(pt.min[l], pt.max[l]))
			}
			cells = append(cells, fmt.Sprintf("at %d B %s = %s", l, strings.Join(terms, " + "), rangeText(lo, hi)))
		}
		var objs []string
		for _, pt := range parts {
			objs = append(objs, pt.object)
		}
		for i, line := range textfmt.Wrap(fmt.Sprintf("%s touches %s; lines %s.", name, strings.Join(objs, " and "), strings.Join(cells, ", ")), 74) {
			fmt.Fprintf(b, "  %s%s\n", strings.Repeat("  ", min(i, 1)), line)
		}
	}
}

func rangeText(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// pairsReport returns who meets whom on each line of one case.
func pairsReport(oa *sharing.ObjectAnalysis, c *sharing.Case) string {
	var b strings.Builder
	for _, ls := range c.Lines {
		lineReport(&b, oa, &ls)
	}
	if b.Len() == 0 {
		b.WriteString("  no line is shared between a writer and another path.\n")
	}
	return b.String()
}

// exposureReport writes, for cases that share one pairs report, the lines
// each shares with neighbours (named where the symbol table places the
// object, unknown otherwise): one line per phase when there is
// one, since the bytes differ with the phase.
func exposureReport(b *strings.Builder, oa *sharing.ObjectAnalysis, cases []*sharing.Case) {
	var perPhase []string
	var writers, readers []string
	for _, c := range cases {
		var parts []string
		for _, ls := range c.Lines {
			if !ls.Exposed() || len(ls.Touchers) == 0 {
				continue
			}
			var where []string
			if ls.ExposedBefore > 0 {
				where = append(where, fmt.Sprintf("%d B before", ls.ExposedBefore))
			}
			if ls.ExposedAfter > 0 {
				after := "after"
				if oa.Object.Layout.PaddedTo > 0 {
					after = fmt.Sprintf("after its padding to %d", oa.Object.Layout.PaddedTo)
				}
				where = append(where, fmt.Sprintf("%d B %s", ls.ExposedAfter, after))
			}
			if names := neighboursOnLine(oa.Object.Layout, c, ls.Index); names != "" {
				where = append(where, names)
			}
			parts = append(parts, fmt.Sprintf("line %d (%s)", ls.Index, strings.Join(where, ", ")))
			for _, w := range ls.Writers {
				writers = appendNew(writers, w)
			}
			for _, r := range without(ls.Touchers, ls.Writers) {
				readers = appendNew(readers, r)
			}
		}
		if len(parts) > 0 {
			prefix := ""
			if len(cases) > 1 {
				prefix = fmt.Sprintf("phase %d: ", c.Phase)
			}
			perPhase = append(perPhase, prefix+strings.Join(parts, ", "))
		}
	}
	if len(perPhase) == 0 {
		return
	}
	who := "unknown neighbours"
	if oa.Object.Layout.Placed {
		who = "neighbours"
	}
	text := who + " share " + strings.Join(perPhase, "; ") + "."
	if len(writers) > 0 {
		text += fmt.Sprintf(" %s %s those lines: false sharing for whatever lives there.", compactMembers(writers), textfmt.Plural(len(writers), "dirties", "dirty"))
	}
	if len(readers) > 0 {
		text += fmt.Sprintf(" A neighbour's writes evict them from %s.", strings.Join(readers, ", "))
	} else if len(writers) > 0 {
		text += " No reader touches them: a neighbour's writes cost the writers alone."
	}
	for i, line := range textfmt.Wrap(text, 74) {
		fmt.Fprintf(b, "  %s%s\n", strings.Repeat("  ", min(i, 1)), line)
	}
}

// neighboursOnLine names the symbols that a placed variable's symbol
// table puts on one of its lines in a case: "holds tick_nsec +288 (8
// bytes)". The image says where they are, not who writes them.
func neighboursOnLine(s *layout.Struct, c *sharing.Case, index int64) string {
	if !s.Placed {
		return ""
	}
	lo := index*c.Line - c.Phase // the line's bytes, from the variable's start
	hi := lo + c.Line
	var names []string
	for _, n := range s.Neighbours {
		if n.Offset < hi && lo < n.Offset+n.Size {
			names = append(names, fmt.Sprintf("%s %+d (%d %s)", n.Name, n.Offset, n.Size, textfmt.Plural(int(n.Size), "byte", "bytes")))
		}
	}
	if len(names) == 0 {
		return "no symbol there"
	}
	return "holds " + strings.Join(names, ", ")
}

// lineReport writes who meets whom on one line, if anyone does, and
// reports whether it wrote anything.
func lineReport(b *strings.Builder, oa *sharing.ObjectAnalysis, ls *sharing.LineShare) bool {
	wrote := false
	byWriter := map[string][]sharing.Pair{}
	var writers []string
	for _, p := range ls.Pairs {
		if _, ok := byWriter[p.Writer]; !ok {
			writers = append(writers, p.Writer)
		}
		byWriter[p.Writer] = append(byWriter[p.Writer], p)
	}
	if clique(ls, writers) {
		wp := pathNamed(oa.Object.Paths, writers[0])
		for i, line := range textfmt.Wrap(fmt.Sprintf("line %d: %s (%s each) write it, each to its own bytes: FALSE sharing between every two of them",
			ls.Index, compactMembers(writers), cpusRate(wp)), 74) {
			fmt.Fprintf(b, "  %s%s\n", strings.Repeat("  ", min(i, 1)), line)
		}
		writers = nil
		wrote = true
	}
	for _, w := range writers {
		wp := pathNamed(oa.Object.Paths, w)
		var trues, falses, self []string
		for _, p := range byWriter[w] {
			switch {
			case p.Other == w:
				self = append(self, p.Other)
			case p.True:
				trues = append(trues, withMembers(p))
			default:
				falses = append(falses, withMembers(p))
			}
		}
		fmt.Fprintf(b, "  line %d: %s (%s) writes it", ls.Index, w, cpusRate(wp))
		if len(self) > 0 {
			b.WriteString(" from several CPUs at once: contended")
		}
		b.WriteString("\n")
		for _, t := range trues {
			for i, line := range textfmt.Wrap("true sharing with "+t, 70) {
				fmt.Fprintf(b, "    %s%s\n", strings.Repeat("  ", min(i, 1)), line)
			}
		}
		if len(falses) > 0 {
			for i, line := range textfmt.Wrap("FALSE sharing with "+strings.Join(falses, "; ")+", which "+textfmt.Plural(len(falses), "touches", "touch")+" nothing "+w+" writes here", 70) {
				fmt.Fprintf(b, "    %s%s\n", strings.Repeat("  ", min(i, 1)), line)
			}
		}
		wrote = true
	}
	return wrote
}

// clique reports whether the line's pairs are exactly every writer
// sharing falsely with every other writer and nothing else: the shards of
// a per-CPU table.
func clique(ls *sharing.LineShare, writers []string) bool {
	if len(writers) < 3 || len(ls.Touchers) != len(writers) {
		return false
	}
	n := 0
	for _, p := range ls.Pairs {
		if p.True || p.Writer == p.Other {
			return false
		}
		n++
	}
	return n == len(writers)*(len(writers)-1)
}

// withMembers names the other path of a pair and, where they are not
// just the path's name, the members it touches on the line.
func withMembers(p sharing.Pair) string {
	if len(p.Members) == 1 && p.Members[0] == p.Other {
		return p.Other
	}
	return fmt.Sprintf("%s (%s)", p.Other, compactMembers(p.Members))
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

func cpusRate(p *access.Path) string {
	cpus := "all CPUs"
	if p.CPUs != access.AllCPUs {
		cpus = fmt.Sprintf("%d %s", p.CPUs, textfmt.Plural(p.CPUs, "CPU", "CPUs"))
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
	members = elementRuns(members)
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

// elementRuns writes consecutive elements of one array as a range:
// shards[0], shards[1], shards[2] becomes shards[0-2].
func elementRuns(members []string) []string {
	var out []string
	for i := 0; i < len(members); {
		base, idx, ok := element(members[i])
		j := i + 1
		for ok && j < len(members) {
			b, n, ok2 := element(members[j])
			if !ok2 || b != base || n != idx+int64(j-i) {
				break
			}
			j++
		}
		if j-i > 2 {
			out = append(out, fmt.Sprintf("%s[%d-%d]", base, idx, idx+int64(j-i-1)))
		} else {
			out = append(out, members[i:j]...)
		}
		i = j
	}
	return out
}

// element splits "a.b[3]" into "a.b" and 3.
func element(member string) (string, int64, bool) {
	open := strings.LastIndex(member, "[")
	if open < 0 || !strings.HasSuffix(member, "]") {
		return "", 0, false
	}
	var n int64
	if _, err := fmt.Sscanf(member[open+1:len(member)-1], "%d", &n); err != nil {
		return "", 0, false
	}
	return member[:open], n, true
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

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}
