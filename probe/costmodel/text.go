package costmodel

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Predicted is what check and diff add to their JSON documents: the
// calibration, the file it came from, and the predictions.
type Predicted struct {
	File        string       `json:"file"`
	Calibration *Calibration `json:"calibration"`
	Pairs       []PairGain   `json:"pairs,omitempty"` // check's
	Paths       []PathChange `json:"paths,omitempty"` // diff's
}

// CheckGains are the gains of every object's false pairs at its worst
// phase of the calibration's line size, the case check's verdict names
// first.
func (c *Calibration) CheckGains(a *sharing.Analysis) []PairGain {
	var out []PairGain
	for i := range a.Objects {
		oa := &a.Objects[i]
		if w := oa.Worst(c.Line); w != nil {
			out = append(out, c.Gains(oa.Object, w, false)...)
		}
	}
	return out
}

// heading names the calibration a prediction comes from.
func (c *Calibration) heading(file string) string {
	return fmt.Sprintf("predicted on this host from the calibration in %s (%s, %d-byte lines, %d rounds of %s)", file, c.Host, c.Line, c.Rounds, c.Duration)
}

// WriteGainsText writes check's predictions: per false pair, what each
// side would gain with the writer's words off the line.
func WriteGainsText(w io.Writer, c *Calibration, file string, gains []PairGain) error {
	var b strings.Builder
	textfmt.Fill(&b, c.heading(file)+":", "\n", "  ", 80)
	for _, cv := range c.Caveats() {
		textfmt.Fill(&b, "caveat: "+cv, "  ", "    ", 80)
	}
	if len(gains) == 0 {
		fmt.Fprintf(&b, "  no false sharing at %d B: nothing to predict\n", c.Line)
	}
	for _, g := range gains {
		textfmt.Fill(&b, fmt.Sprintf("%s at %d B phase %d, line %d, %s beside %s (%s): %s", g.Object, g.Line, g.Phase, g.LineIndex, g.Other, g.Writer, g.Kinds, gainWords(g)), "  ", "    ", 80)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteGainsMarkdown writes check's predictions as a list.
func WriteGainsMarkdown(w io.Writer, c *Calibration, file string, gains []PairGain) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s:\n\n", c.heading(file))
	for _, cv := range c.Caveats() {
		fmt.Fprintf(&b, "- caveat: %s\n", cv)
	}
	if len(gains) == 0 {
		fmt.Fprintf(&b, "- no false sharing at %d B: nothing to predict\n", c.Line)
	}
	for _, g := range gains {
		fmt.Fprintf(&b, "- `%s` at %d B phase %d, line %d, `%s` beside `%s` (%s): %s\n", g.Object, g.Line, g.Phase, g.LineIndex, g.Other, g.Writer, g.Kinds, gainWords(g))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func gainWords(g PairGain) string {
	if g.Uncalibrated != "" {
		return g.Uncalibrated
	}
	return fmt.Sprintf("%s %s, %s %s with the writer's words off the line", g.Other, percent(g.Gain.Reader), g.Writer, percent(g.Gain.Writer))
}

// WriteChangesText writes diff's predictions: per path, the change from
// old to new, the cases of the calibration's line size that predict
// alike in one line, and those predicted to change by less than noChange
// summed up in a line.
func WriteChangesText(w io.Writer, c *Calibration, file string, changes []PathChange) error {
	var b strings.Builder
	textfmt.Fill(&b, c.heading(file)+", old → new:", "\n", "  ", 80)
	for _, cv := range c.Caveats() {
		textfmt.Fill(&b, "caveat: "+cv, "  ", "    ", 80)
	}
	groups, quiet := groupChanges(changes)
	for _, g := range groups {
		textfmt.Fill(&b, fmt.Sprintf("%s at %d B %s: %s", g.Path, g.Line, g.phases, changeWords(g.PathChange)), "  ", "    ", 80)
	}
	if quiet > 0 {
		fmt.Fprintf(&b, "  %d more %s: no change of %.1f%% or more\n", quiet, plural(quiet, "row", "rows"), 100*noChange)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteChangesMarkdown writes diff's predictions as a list.
func WriteChangesMarkdown(w io.Writer, c *Calibration, file string, changes []PathChange) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s, old → new:\n\n", c.heading(file))
	for _, cv := range c.Caveats() {
		fmt.Fprintf(&b, "- caveat: %s\n", cv)
	}
	groups, quiet := groupChanges(changes)
	for _, g := range groups {
		fmt.Fprintf(&b, "- `%s` at %d B %s: %s\n", g.Path, g.Line, g.phases, changeWords(g.PathChange))
	}
	if quiet > 0 {
		fmt.Fprintf(&b, "- %d more %s: no change of %.1f%% or more\n", quiet, plural(quiet, "row", "rows"), 100*noChange)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// changeGroup is the rows of one path that read alike, and their phases
// as words.
type changeGroup struct {
	PathChange
	phases string
	list   []string
}

// groupChanges gathers, per path in first-seen order, the rows whose
// prediction reads the same, and counts the rows of no change.
func groupChanges(changes []PathChange) ([]*changeGroup, int) {
	var groups []*changeGroup
	quiet := 0
	for _, pc := range changes {
		if math.Abs(pc.Change) < noChange && len(pc.Uncalibrated) == 0 {
			quiet++
			continue
		}
		phase := fmt.Sprint(pc.Phase)
		if pc.Phase != pc.NewPhase {
			phase += fmt.Sprintf(" → %d", pc.NewPhase)
		}
		i := slices.IndexFunc(groups, func(g *changeGroup) bool {
			return g.Path == pc.Path && g.Line == pc.Line && changeWords(g.PathChange) == changeWords(pc)
		})
		if i < 0 {
			groups = append(groups, &changeGroup{PathChange: pc})
			i = len(groups) - 1
		}
		groups[i].list = append(groups[i].list, phase)
	}
	for _, g := range groups {
		g.phases = plural(len(g.list), "phase ", "phases ") + strings.Join(g.list, ", ")
	}
	return groups, quiet
}

// noChange is the predicted change below which a row is no change: far
// below what any run can measure.
const noChange = 0.005

func changeWords(pc PathChange) string {
	s := percent(pc.Change)
	if len(pc.Uncalibrated) > 0 {
		s += " (without pairs of " + strings.Join(pc.Uncalibrated, "; ") + ")"
	}
	return s
}

func percent(x float64) string { return fmt.Sprintf("%+.1f%%", 100*x) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
