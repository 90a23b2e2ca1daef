package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout"
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

	if moves := describeMoves(r); moves != "" {
		fmt.Fprintf(&b, "\nWhat moved:\n%s", moves)
	}
	if why := describeWhy(r); len(why) > 0 {
		b.WriteString("\nWhy:\n")
		for _, para := range why {
			for i, line := range textfmt.Wrap(para, 76) {
				fmt.Fprintf(&b, "  %s%s\n", strings.Repeat("  ", min(i, 1)), line)
			}
		}
	}

	b.WriteString("\nPer path (lines touched, line 0 holding the first byte; [n×128]: 128-byte blocks):\n")
	var unchanged []string
	for _, name := range pathNames(r) {
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
				verdict += ": " + strings.Join(row.Changes, ", ")
			}
			table = append(table, []string{
				fmt.Sprintf("%d B/%d", row.Line, row.Phase),
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
	var better []int64
	for _, row := range r.Rows {
		if row.Verdict == diff.Better && !slices.Contains(better, row.Line) {
			better = append(better, row.Line)
		}
	}
	slices.Sort(better)
	falseText := fmt.Sprintf("false-sharing pairs over all cases: %d → %d", r.FalseOld, r.FalseNew)
	if r.FalseOld == 0 && r.FalseNew == 0 {
		falseText = "no false sharing before or after"
	}
	var b strings.Builder
	if len(worseAt) > 0 {
		names := countPaths(r, true)
		verb := "touch"
		if !strings.Contains(names, ",") && !strings.Contains(names, " and ") {
			verb = "touches"
		}
		fmt.Fprintf(&b, "REGRESSION at %s: %s %s more lines, 128-byte blocks or false-shared lines", sizes(worseAt), names, verb)
	} else {
		b.WriteString("No regression at any line size")
	}
	if len(better) > 0 {
		fmt.Fprintf(&b, "; better at %s for %s", sizes(better), countPaths(r, false))
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

// countPaths names the paths that got worse (or better) somewhere.
func countPaths(r *diff.Result, worse bool) string {
	var names []string
	for _, row := range r.Rows {
		hit := row.Verdict == diff.Better
		if worse {
			hit = row.Verdict == diff.Worse || row.Verdict == diff.Mixed
		}
		if hit && !slices.Contains(names, row.Path) {
			names = append(names, row.Path)
		}
	}
	if len(names) <= 3 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more paths", strings.Join(names[:2], ", "), len(names)-2)
}

// describeMoves lists the members that moved with the lines they move
// between at every case, grouping a run of members that all move by the
// same distance.
func describeMoves(r *diff.Result) string {
	var b strings.Builder
	oldS, newS := r.Old.Object.Layout, r.New.Object.Layout
	for _, m := range outermostAdded(newS, r.Added) {
		f := newS.Field(m)
		fmt.Fprintf(&b, "  + %s (%s, %d bytes at %d)\n", m, f.Type, f.Size, f.Offset)
	}
	for _, m := range r.Removed {
		fmt.Fprintf(&b, "  - %s\n", m)
	}
	for i := 0; i < len(r.Moves); {
		j := i + 1
		delta := r.Moves[i].New - r.Moves[i].Old
		for j < len(r.Moves) && r.Moves[j].New-r.Moves[j].Old == delta {
			j++
		}
		first := r.Moves[i]
		switch j - i {
		case 1:
		case 2:
			fmt.Fprintf(&b, "  %s and the member after it move %+d bytes\n", first.Member, delta)
		default:
			fmt.Fprintf(&b, "  %s and the %d members after it move %+d bytes\n", first.Member, j-i-1, delta)
		}
		// Show the members of the run that a changed path touches and
		// that change line somewhere: the ones the verdict turns on.
		shown, more := 0, 0
		for _, m := range r.Moves[i:j] {
			if !touchedByChanged(r, m.Member) {
				continue
			}
			cells := lineChanges(r, oldS.Field(m.Member), newS.Field(m.Member))
			switch {
			case cells == "":
			case shown < 4:
				fmt.Fprintf(&b, "    %s %d → %d: %s\n", m.Member, m.Old, m.New, cells)
				shown++
			default:
				more++
			}
		}
		if more > 0 {
			fmt.Fprintf(&b, "    and %d more that change lines\n", more)
		}
		i = j
	}
	return b.String()
}

// outermostAdded reduces the added leaf members to the outermost added
// members holding them: "shadow_timekeeper", not its forty fields.
func outermostAdded(s *layout.Struct, added []string) []string {
	var out []string
	for _, m := range added {
		top := m
		for i := s.Field(m).Parent; i >= 0; i = s.Fields[i].Parent {
			if slices.Contains(added, s.Fields[i].Path) || !hasLeafOutside(s, i, added) {
				top = s.Fields[i].Path
			}
		}
		out = appendNew(out, top)
	}
	return out
}

// outermostNew returns the outermost member of the new layout that holds
// member and is not in the old layout: shadow_timekeeper for
// shadow_timekeeper.tkr_mono.mult.
func outermostNew(r *diff.Result, member string) string {
	newS, oldS := r.New.Object.Layout, r.Old.Object.Layout
	f := newS.Field(member)
	if f == nil {
		return member
	}
	top := member
	for i := f.Parent; i >= 0; i = newS.Fields[i].Parent {
		if oldS.Field(newS.Fields[i].Path) == nil {
			top = newS.Fields[i].Path
		}
	}
	return top
}

// hasLeafOutside reports whether the aggregate at index i holds a leaf
// member that is not in added.
func hasLeafOutside(s *layout.Struct, i int, added []string) bool {
	prefix := s.Fields[i].Path + "."
	for _, f := range s.Fields {
		if !f.Aggregate() && strings.HasPrefix(f.Path, prefix) && !slices.Contains(added, f.Path) {
			return true
		}
	}
	return false
}

// touchedByChanged reports whether a path whose figures changed in some
// case accesses the member.
func touchedByChanged(r *diff.Result, member string) bool {
	for _, p := range r.New.Object.Paths {
		changed := slices.ContainsFunc(r.Rows, func(row diff.Row) bool { return row.Path == p.Name && row.Verdict != diff.Same })
		if !changed {
			continue
		}
		for _, a := range p.Accesses {
			if a.Member == member || strings.HasPrefix(member, a.Member+".") {
				return true
			}
		}
	}
	return false
}

// lineChanges says, for each case, on which line a member sits before and
// after, when that differs anywhere.
func lineChanges(r *diff.Result, o, n *layout.Field) string {
	var parts []string
	changed := false
	for _, line := range r.Lines {
		var phases []int64
		for _, c := range r.New.Cases {
			if c.Line == line {
				phases = append(phases, c.Phase)
			}
		}
		for _, phase := range phases {
			os, ns := o.Lines(line, phase), n.Lines(line, phase)
			changed = changed || os != ns
			label := fmt.Sprintf("%d B", line)
			if len(phases) > 1 {
				label += fmt.Sprintf("/%d", phase)
			}
			parts = append(parts, fmt.Sprintf("%s line %s → %s", label, os, ns))
		}
	}
	if !changed {
		return ""
	}
	return strings.Join(parts, "; ")
}

// describeWhy turns the comparison into the reviewer's argument: for each
// member that moved away from the others a path reads, who writes and who
// reads them and whether that sharing is true; then, for each path that
// got worse, what changed and where nothing did.
func describeWhy(r *diff.Result) []string {
	var paragraphs []string
	say := func(text string) { paragraphs = append(paragraphs, text) }

	// Group the separations by the member that moved and the cases.
	type group struct {
		moved            string
		partners, cases  []string
		readers, writers []string
		allTrue          bool
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, s := range r.Separations {
		moved, partner := s.B, s.A
		if slices.ContainsFunc(r.Moves, func(m diff.Move) bool { return m.Member == s.A }) &&
			!slices.ContainsFunc(r.Moves, func(m diff.Move) bool { return m.Member == s.B }) {
			moved, partner = s.A, s.B
		}
		g := byKey[moved]
		if g == nil {
			g = &group{moved: moved, allTrue: true}
			byKey[moved] = g
			groups = append(groups, g)
		}
		g.partners = appendNew(g.partners, partner)
		g.cases = appendNew(g.cases, fmt.Sprintf("%d B phase %d", s.Line, s.Phase))
		for _, x := range s.Readers {
			g.readers = appendNew(g.readers, x)
		}
		for _, x := range s.Writers {
			g.writers = appendNew(g.writers, x)
		}
		g.allTrue = g.allTrue && s.AllTrue
	}
	for _, g := range groups {
		text := fmt.Sprintf("%s no longer shares a line with %s at %s.", g.moved, compactMembers(g.partners), strings.Join(g.cases, ", "))
		if len(g.writers) > 0 {
			text += fmt.Sprintf(" They are written by the same writer (%s)", strings.Join(g.writers, ", "))
			if len(g.readers) > 0 {
				text += fmt.Sprintf(" and read by the same readers (%s)", strings.Join(g.readers, ", "))
			}
			text += "."
			if g.allTrue {
				text += " That is true sharing, before and after: the readers need what the writer wrote, so the line moves to them whatever the layout, and padding cannot remove it. Separating the members only makes each reader touch one more line."
			}
		}
		if !g.allTrue {
			text += " Some lines those readers touch are shared falsely, which padding can remove; see the figures below."
		}
		say(text)
	}

	// Per worse path: the 128-byte blocks at small line sizes, and the
	// cases where nothing changed.
	for _, name := range pathNames(r) {
		var changed, same []diff.Row
		for _, row := range r.Rows {
			if row.Path != name {
				continue
			}
			if row.Verdict == diff.Same {
				same = append(same, row)
			} else {
				changed = append(changed, row)
			}
		}
		if len(changed) == 0 {
			continue
		}
		for _, row := range changed {
			var why []string
			// Members that make the same move are named together.
			moves := map[[2]layout.Span][]string{}
			var order [][2]layout.Span
			for _, m := range row.Moved {
				k := [2]layout.Span{m.Old, m.New}
				if _, ok := moves[k]; !ok {
					order = append(order, k)
				}
				moves[k] = append(moves[k], m.Member)
			}
			for _, k := range order {
				verb := "moves"
				if len(moves[k]) > 1 {
					verb = "move"
				}
				why = append(why, fmt.Sprintf("%s %s from line %s to %s", compactMembers(moves[k]), verb, k[0], k[1]))
			}
			if len(row.NewMembers) > 0 {
				var added []string
				for _, m := range row.NewMembers {
					added = appendNew(added, outermostNew(r, m))
				}
				why = append(why, "it now also accesses "+strings.Join(added, ", "))
			}
			because := ""
			if len(why) > 0 {
				because = ": " + strings.Join(why, "; ")
			}
			switch {
			case len(row.New.Lines) != len(row.Old.Lines):
				say(fmt.Sprintf("At %d B phase %d, %s touches %s instead of %d%s.",
					row.Line, row.Phase, name, countLines(len(row.New.Lines)), len(row.Old.Lines), because))
			case row.New.FalseLines != row.Old.FalseLines:
				say(fmt.Sprintf("At %d B phase %d, %s shares %s falsely instead of %d%s.",
					row.Line, row.Phase, name, countLines(row.New.FalseLines), row.Old.FalseLines, because))
			case row.Line < 128 && row.New.Blocks128 > row.Old.Blocks128:
				because = strings.Replace(because, ": ", ", because ", 1)
				say(fmt.Sprintf("At %d B phase %d, %s touched lines %s, %s of 128 bytes; now it touches lines %s, %s%s: the adjacent-line prefetcher no longer brings its data in with one fetch.",
					row.Line, row.Phase, name, textfmt.Ranges(row.Old.Lines), blocks(row.Old.Blocks128),
					textfmt.Ranges(row.New.Lines), blocks(row.New.Blocks128), because))
			}
		}
		if len(same) > 0 {
			var cases []string
			identical := true
			for _, row := range same {
				cases = append(cases, fmt.Sprintf("%d B phase %d", row.Line, row.Phase))
				identical = identical && slices.Equal(row.Old.Lines, row.New.Lines) && slices.Equal(row.New.Lines, same[0].New.Lines)
			}
			what := "as many lines and 128-byte blocks as before"
			if identical {
				what = plural(len(same[0].New.Lines), "line ", "lines ") + textfmt.Ranges(same[0].New.Lines) + " either way"
			}
			say(fmt.Sprintf("At %s nothing changes for %s: it touches %s.", strings.Join(cases, ", "), name, what))
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

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
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

func pathNames(r *diff.Result) []string {
	var names []string
	for _, row := range r.Rows {
		if !slices.Contains(names, row.Path) {
			names = append(names, row.Path)
		}
	}
	return names
}

func countLines(n int) string {
	return fmt.Sprintf("%d %s", n, plural(n, "line", "lines"))
}
