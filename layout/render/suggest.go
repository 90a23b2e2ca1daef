package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/suggest"
)

// SuggestionText writes a suggestion for people: the cost before and
// after, what was left as declared and why, the padding, the suggested
// declarations with a diff against the declared ones, and the figures of
// the declared layout against the suggested one (nil when nothing
// changes).
func SuggestionText(w io.Writer, r *suggest.Result, decls []suggest.Declaration, figures *diff.Result, lines []int64) error {
	s := r.Original
	fmt.Fprintf(w, "%s (%s, %s): suggestion for %s\n\n", s.Name, s.Source, s.Arch, suggestSizes(lines))
	if len(r.Reordered) == 0 && len(r.Padding) == 0 {
		fmt.Fprintf(w, "The declared layout is already the best this search finds (cost %s).\n", costText(r.CostBefore))
	} else {
		fmt.Fprintf(w, "Cost (rate-weighted lines touched, summed over line sizes and phases): %s → %s (%.1f%% less).\n",
			costText(r.CostBefore), costText(r.CostAfter), 100*(1-r.CostAfter/r.CostBefore))
	}
	for _, path := range sortedKeys(r.Frozen) {
		name := path
		if name == "" {
			name = s.Name
		}
		fmt.Fprintf(w, "left as declared: %s, because %s\n", name, r.Frozen[path])
	}
	for _, p := range r.Padding {
		fmt.Fprintf(w, "padding: %d bytes before %s, so that no line holds members on both sides\n", p.Bytes, p.Before)
	}
	for _, u := range r.Unresolved {
		fmt.Fprintf(w, "not resolved: %s\n", u)
	}
	for _, d := range decls {
		declared := d.Name + " (declared)"
		if d.At != "" {
			declared = d.Name + " (declared at " + d.At + ")"
		}
		fmt.Fprintf(w, "\nSuggested declaration:\n\n%s\n%s", indent(d.New), suggest.Unified(declared, d.Name+" (suggested)", d.Old, d.New))
	}
	if figures == nil {
		return nil
	}
	fmt.Fprintf(w, "\nFigures, declared → suggested:\n\n")
	return DiffText(w, figures)
}

func suggestSizes(lines []int64) string {
	var s []string
	for _, l := range lines {
		s = append(s, fmt.Sprintf("%d B", l))
	}
	return strings.Join(s, ", ") + " lines"
}

func costText(c float64) string { return fmt.Sprintf("%.4g", c) }

func indent(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		b.WriteString("\t" + line + "\n")
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
