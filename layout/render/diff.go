package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout/diff"
)

// DiffText writes a comparison the way a reviewer argues: the verdict per
// line size, what moved, why the change does or does not help (which
// members a path now finds on separate lines, who writes and reads them,
// and whether that sharing is true or false), then the figures of every
// path that changed.
func DiffText(w io.Writer, r *diff.Result) error {
	var b strings.Builder
	oldS, newS := r.Old.Object.Layout, r.New.Object.Layout
	fmt.Fprintf(&b, "%s → %s (%s)\n\n", oldS.Name, newS.Name, newS.Arch)

	worseAt := r.WorseAt()
	b.WriteString(verdictLine(r, worseAt))
	b.WriteString("\n")
	if changes := r.Judgement.Changes; len(changes) > 0 {
		b.WriteString("\nGate (mglayout help diff states the rule):\n")
		for _, c := range changes {
			for i, line := range textfmt.Wrap(gateLine(c), 76) {
				fmt.Fprintf(&b, "  %s%s\n", strings.Repeat("  ", min(i, 1)), line)
			}
		}
	}

	e := r.Explain()
	if moves := describeMoves(r, e); moves != "" {
		fmt.Fprintf(&b, "\nWhat moved:\n%s", moves)
	}
	if why := describeWhy(e); len(why) > 0 {
		b.WriteString("\nWhy:\n")
		for _, para := range why {
			for i, line := range textfmt.Wrap(para, 76) {
				fmt.Fprintf(&b, "  %s%s\n", strings.Repeat("  ", min(i, 1)), line)
			}
		}
	}

	b.WriteString("\nPer path (lines touched, line 0 holding the first byte; [n×128]: 128-byte blocks):\n")
	var unchanged []string
	for _, name := range r.PathNames() {
		var rows []diff.Row
		changed := false
		for _, row := range r.Rows {
			if row.Path == name {
				rows = append(rows, row)
				changed = changed || row.Verdict != diff.Same || !slices.Equal(row.Old.Lines, row.New.Lines)
			}
		}
		if !changed {
			unchanged = append(unchanged, fmt.Sprintf("%s (%d B: %s)", name, rows[0].Line, textfmt.Ranges(rows[0].New.Lines)))
			continue
		}
		fmt.Fprintf(&b, "  %s\n", name)
		table := [][]string{}
		for _, row := range rows {
			verdict := row.Verdict.String()
			if len(row.Changes) > 0 {
				verdict += ": " + strings.Join(diff.Texts(row.Changes), ", ")
			}
			table = append(table, []string{
				caseLabel(diff.Case{Line: row.Line, Phase: row.Phase, NewPhase: row.NewPhase}),
				figuresCell(row.Old, row.Line), "→", figuresCell(row.New, row.Line), verdict,
			})
		}
		textfmt.Table(&b, "    ", table)
	}
	if len(unchanged) > 0 {
		for i, line := range textfmt.Wrap("unchanged in every case: "+strings.Join(unchanged, ", "), 76) {
			fmt.Fprintf(&b, "  %s%s\n", strings.Repeat("  ", min(i, 1)), line)
		}
	}
	if len(r.OnlyOld) > 0 {
		fmt.Fprintf(&b, "  only in %s: %s\n", oldS.Name, strings.Join(r.OnlyOld, ", "))
	}
	if len(r.OnlyNew) > 0 {
		fmt.Fprintf(&b, "  only in %s: %s\n", newS.Name, strings.Join(r.OnlyNew, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func verdictLine(r *diff.Result, worseAt []int64) string {
	if len(r.Rows) == 0 {
		// Only under -unlike: no path is on both sides.
		return "Nothing compared: no access path is on both sides, so no case can be judged."
	}
	j := r.Judgement
	falseText := fmt.Sprintf("false-sharing pairs over all cases: %d → %d", r.FalseOld, r.FalseNew)
	if r.FalseOld == 0 && r.FalseNew == 0 {
		falseText = "no false sharing before or after"
	}
	var regressing, outweighed, better []string
	for _, c := range j.Changes {
		switch {
		case c.Outweighed:
			outweighed = append(outweighed, fmt.Sprintf("%s (%s)", c.Path, c.Rate))
		case c.Worse:
			regressing = append(regressing, c.Path)
		default:
			better = append(better, c.Path)
		}
	}
	var b strings.Builder
	if m := r.Moved; m != nil {
		b.WriteString(movedText(r.New.Object.Layout.Name, m) + "\n")
	}
	if len(worseAt) > 0 {
		verb := "touch"
		if len(regressing) == 1 {
			verb = "touches"
		}
		fmt.Fprintf(&b, "REGRESSION at %s: %s %s more lines, 128-byte blocks or false-shared lines", sizes(worseAt), listPaths(regressing), verb)
	} else {
		b.WriteString("No regression at any line size")
	}
	switch {
	case len(j.BetterAt) > 0:
		fmt.Fprintf(&b, "; better for %s at %s", listPaths(j.Gaining), sizes(j.BetterAt))
	case len(better) > 0 && len(worseAt) > 0:
		fmt.Fprintf(&b, "; better for %s", listPaths(better))
	}
	if len(outweighed) > 0 {
		// Never under -strict, where nothing is outweighed.
		fmt.Fprintf(&b, "; %s costs more, outweighed by the hot paths' gain", listPaths(outweighed))
	}
	fmt.Fprintf(&b, "; %s.", falseText)
	var out strings.Builder
	for _, line := range textfmt.Wrap(b.String(), 78) {
		out.WriteString(line + "\n")
	}
	return strings.TrimSuffix(out.String(), "\n")
}

func sizes(lines []int64) string {
	var s []string
	for _, l := range lines {
		s = append(s, fmt.Sprintf("%d B", l))
	}
	return strings.Join(s, " and ")
}

// listPaths names paths, the first three and a count of the rest.
func listPaths(names []string) string {
	if len(names) <= 3 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more paths", strings.Join(names[:2], ", "), len(names)-2)
}

// describeMoves lists the members that moved with the lines they move
// between at every case, grouping a run of members that all move by the
// same distance.
func describeMoves(r *diff.Result, e *diff.Explanation) string {
	var b strings.Builder
	newS := r.New.Object.Layout
	for _, rl := range r.Relocations {
		fmt.Fprintf(&b, "  %s, an object of its own, is now %s (at %d)\n", rl.Old, rl.New, rl.Offset)
	}
	for _, m := range e.Added {
		f := newS.Field(m)
		fmt.Fprintf(&b, "  + %s (%s, %d bytes at %d)\n", m, f.Type, f.Size, f.Offset)
	}
	for _, m := range e.Removed {
		fmt.Fprintf(&b, "  - %s\n", m)
	}
	for _, run := range e.Runs {
		switch run.Members {
		case 1:
		case 2:
			fmt.Fprintf(&b, "  %s and the member after it move %+d bytes\n", run.First, run.Delta)
		default:
			fmt.Fprintf(&b, "  %s and the %d members after it move %+d bytes\n", run.First, run.Members-1, run.Delta)
		}
		for _, m := range run.Shown {
			fmt.Fprintf(&b, "    %s %d → %d: %s\n", m.Member, m.Old, m.New, lineChanges(m.Lines))
		}
		if run.More > 0 {
			fmt.Fprintf(&b, "    and %d more that change lines\n", run.More)
		}
	}
	return b.String()
}

// lineChanges says, for each case, on which line a member sits before and
// after.
func lineChanges(lines []diff.CaseLines) string {
	var parts []string
	for _, cl := range lines {
		label := fmt.Sprintf("%d B", cl.Line)
		if cl.Phased {
			label = caseLabel(diff.Case{Line: cl.Line, Phase: cl.Phase, NewPhase: cl.NewPhase})
		}
		parts = append(parts, fmt.Sprintf("%s line %s → %s", label, cl.Old, cl.New))
	}
	return strings.Join(parts, "; ")
}

// movedText says first that only the placement changed: "tk_core moved
// from 0xffffffff83a1e900 (0 mod 128) to 0xffffffff83a1e940 (64 mod
// 128); the layout is identical."
func movedText(name string, m *diff.Moved) string {
	var at []string
	for _, l := range m.Lines {
		at = append(at, fmt.Sprintf("%s at %d B", phaseList(m.OldPhase[l])+" → "+phaseList(m.NewPhase[l]), l))
	}
	s := fmt.Sprintf("%s starts elsewhere (phases %s); the layout is identical.", name, strings.Join(at, ", "))
	if m.Placed {
		l := m.Lines[len(m.Lines)-1]
		s = fmt.Sprintf("%s moved from %#x (%d mod %d) to %#x (%d mod %d); the layout is identical.",
			name, m.OldAddress, m.OldAddress%uint64(l), l, m.NewAddress, m.NewAddress%uint64(l), l)
	}
	if len(m.Neighbours) > 0 {
		s += " Its first and last lines changed neighbours: " + strings.Join(m.Neighbours, ", ") + "."
	}
	return s
}

func phaseList(ps []int64) string {
	var strs []string
	for _, p := range ps {
		strs = append(strs, fmt.Sprint(p))
	}
	return strings.Join(strs, ", ")
}

// caseLabel names a case in a table: "64 B/0", or "128 B/0→64" where
// the old object starts at 0 and the new one at 64.
func caseLabel(c diff.Case) string {
	if c.NewPhase != c.Phase {
		return fmt.Sprintf("%d B/%d→%d", c.Line, c.Phase, c.NewPhase)
	}
	return fmt.Sprintf("%d B/%d", c.Line, c.Phase)
}

// caseText names a case in a sentence: "64 B phase 0", or "128 B, phase
// 0 before and 64 after".
func caseText(c diff.Case) string {
	if c.NewPhase != c.Phase {
		return fmt.Sprintf("%d B, phase %d before and %d after", c.Line, c.Phase, c.NewPhase)
	}
	return fmt.Sprintf("%d B phase %d", c.Line, c.Phase)
}

func casesText(cs []diff.Case) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, caseText(c))
	}
	return strings.Join(parts, ", ")
}

// describeWhy words the reviewer's argument: for each member that moved
// away from the others a path reads, who writes and who reads them and
// whether that sharing is true; then, for each path that got worse, what
// changed and where nothing did.
func describeWhy(e *diff.Explanation) []string {
	var paragraphs []string
	say := func(text string) { paragraphs = append(paragraphs, text) }
	for _, g := range e.Separated {
		text := fmt.Sprintf("%s no longer shares a line with %s at %s.", g.Moved, compactMembers(g.Partners), casesText(g.Cases))
		if len(g.Writers) > 0 {
			text += fmt.Sprintf(" They are written by the same writer (%s)", strings.Join(g.Writers, ", "))
			if len(g.Readers) > 0 {
				text += fmt.Sprintf(" and read by the same readers (%s)", strings.Join(g.Readers, ", "))
			}
			text += "."
			if g.AllTrue {
				text += " That is true sharing, before and after: the readers need what the writer wrote, so the line moves to them whatever the layout, and padding cannot remove it. Separating the members only makes each reader touch one more line."
			}
		}
		if !g.AllTrue {
			text += " Some lines those readers touch are shared falsely, which padding can remove; see the figures below."
		}
		say(text)
	}
	for _, pc := range e.Paths {
		for _, cc := range pc.Changed {
			var why []string
			for _, m := range cc.Moves {
				verb := "moves"
				if len(m.Members) > 1 {
					verb = "move"
				}
				why = append(why, fmt.Sprintf("%s %s from line %s to %s", compactMembers(m.Members), verb, m.Old, m.New))
			}
			if len(cc.Joined) > 0 {
				why = append(why, "it finds "+strings.Join(cc.Joined, ", ")+" inside the object now, on lines it shares, not as objects of their own")
			}
			if len(cc.NewMembers) > 0 {
				why = append(why, "it now also accesses "+strings.Join(cc.NewMembers, ", "))
			}
			because := ""
			if len(why) > 0 {
				because = ": " + strings.Join(why, "; ")
			}
			switch cc.Kind {
			case diff.LinesChange:
				say(fmt.Sprintf("At %s, %s touches %s instead of %d%s.",
					caseText(cc.Case), pc.Path, countLines(len(cc.New.Lines)), len(cc.Old.Lines), because))
			case diff.FalseChange:
				say(fmt.Sprintf("At %s, %s shares %s falsely instead of %d%s.",
					caseText(cc.Case), pc.Path, countLines(cc.New.FalseLines), cc.Old.FalseLines, because))
			case diff.BlocksChange:
				because = strings.Replace(because, ": ", ", because ", 1)
				say(fmt.Sprintf("At %s, %s touched lines %s, %s of 128 bytes; now it touches lines %s, %s%s: the adjacent-line prefetcher no longer brings its data in with one fetch.",
					caseText(cc.Case), pc.Path, textfmt.Ranges(cc.Old.Lines), blocks(cc.Old.Blocks128),
					textfmt.Ranges(cc.New.Lines), blocks(cc.New.Blocks128), because))
			}
		}
		if len(pc.Same) > 0 {
			what := "as many lines and 128-byte blocks as before"
			if pc.Identical {
				what = textfmt.Plural(len(pc.Lines), "line ", "lines ") + textfmt.Ranges(pc.Lines) + " either way"
			}
			say(fmt.Sprintf("At %s nothing changes for %s: it touches %s.", casesText(pc.Same), pc.Path, what))
		}
	}
	return paragraphs
}

func blocks(n int) string {
	if n == 1 {
		return "one aligned pair"
	}
	return fmt.Sprintf("%d pairs", n)
}

func figuresCell(f diff.Figures, line int64) string {
	cell := textfmt.Ranges(f.Lines)
	if line < 128 && len(f.Lines) > 0 {
		cell += fmt.Sprintf(" [%d×128]", f.Blocks128)
	}
	if f.FalseLines > 0 {
		cell += fmt.Sprintf(" (%d false)", f.FalseLines)
	}
	return cell
}

func countLines(n int) string {
	return fmt.Sprintf("%d %s", n, textfmt.Plural(n, "line", "lines"))
}

// gateLine words a path's change in the gate's terms: "tick (the tick
// writer), 250/s, at 64 B/0: lines 5 → 9, 128-byte blocks 3 → 5;
// outweighed by the hot paths' gain".
func gateLine(c diff.PathChange) string {
	name := c.Path
	if c.What != "" {
		name += " (" + c.What + ")"
	}
	s := fmt.Sprintf("%s, %s, at %s: %s", name, c.Rate, caseLabel(diff.Case{Line: c.Line, Phase: c.Phase, NewPhase: c.NewPhase}), strings.Join(diff.Texts(c.Changes), ", "))
	switch {
	case c.Outweighed:
		s += "; outweighed by the hot paths' gain"
	case c.Worse:
		s += "; worse"
	default:
		s += "; better"
	}
	return s
}
