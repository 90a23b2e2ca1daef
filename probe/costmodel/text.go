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
	return c.gainsSection(file, gains, plainName).writeText(w)
}

// WriteGainsMarkdown writes check's predictions as a list.
func WriteGainsMarkdown(w io.Writer, c *Calibration, file string, gains []PairGain) error {
	return c.gainsSection(file, gains, codeName).writeMarkdown(w)
}

// WriteChangesText writes diff's predictions: per path, the change from
// old to new, the cases of the calibration's line size that predict
// alike in one line, and those predicted to change by less than noChange
// summed up in a line.
func WriteChangesText(w io.Writer, c *Calibration, file string, changes []PathChange) error {
	return c.changesSection(file, changes, plainName).writeText(w)
}

// WriteChangesMarkdown writes diff's predictions as a list.
func WriteChangesMarkdown(w io.Writer, c *Calibration, file string, changes []PathChange) error {
	return c.changesSection(file, changes, codeName).writeMarkdown(w)
}

// section is a heading and its items, which text and Markdown render
// alike: the text indented and filled to 80 columns, Markdown a list.
type section struct {
	heading string
	items   []string
}

func (s section) writeText(w io.Writer) error {
	var b strings.Builder
	textfmt.Fill(&b, s.heading, "\n", "  ", 80)
	for _, it := range s.items {
		textfmt.Fill(&b, it, "  ", "    ", 80)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (s section) writeMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n\n", s.heading)
	for _, it := range s.items {
		fmt.Fprintf(&b, "- %s\n", it)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// plainName and codeName spell a name of code in text and in Markdown.
func plainName(s string) string { return s }
func codeName(s string) string  { return "`" + s + "`" }

// caveatItems are the calibration's caveats as items.
func (c *Calibration) caveatItems() []string {
	var out []string
	for _, cv := range c.Caveats() {
		out = append(out, "caveat: "+cv)
	}
	return out
}

func (c *Calibration) gainsSection(file string, gains []PairGain, name func(string) string) section {
	s := section{heading: c.heading(file) + ":", items: c.caveatItems()}
	if len(gains) == 0 {
		s.items = append(s.items, fmt.Sprintf("no false sharing at %d B: nothing to predict", c.Line))
	}
	for _, g := range gains {
		s.items = append(s.items, fmt.Sprintf("%s at %d B phase %d, line %d, %s beside %s (%s): %s", name(g.Object), g.Line, g.Phase, g.LineIndex, name(g.Other), name(g.Writer), g.Kinds, gainWords(g)))
	}
	return s
}

func (c *Calibration) changesSection(file string, changes []PathChange, name func(string) string) section {
	s := section{heading: c.heading(file) + ", old → new:", items: c.caveatItems()}
	groups, quiet := groupChanges(changes)
	for _, g := range groups {
		s.items = append(s.items, fmt.Sprintf("%s at %d B %s: %s", name(g.Path), g.Line, g.phases, changeWords(g.PathChange)))
	}
	if quiet > 0 {
		s.items = append(s.items, fmt.Sprintf("%d more %s: no change of %.1f%% or more", quiet, textfmt.Plural(quiet, "row", "rows"), 100*noChange))
	}
	return s
}

func gainWords(g PairGain) string {
	if g.Uncalibrated != "" {
		return g.Uncalibrated
	}
	return fmt.Sprintf("%s %s, %s %s with the writer's words off the line", g.Other, percent(g.Gain.Reader), g.Writer, percent(g.Gain.Writer))
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
		g.phases = textfmt.Plural(len(g.list), "phase ", "phases ") + strings.Join(g.list, ", ")
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
