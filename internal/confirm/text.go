package confirm

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/internal/vet"
	"github.com/mglayout/mglayout/layout/falsesharing"
)

// Skipped is a finding the probe cannot replay, and why: listed, not
// hidden.
type Skipped struct {
	Where string `json:"where"`
	What  string `json:"what"`
	Why   string `json:"why"`
}

// WriteText writes each outcome, then the findings that could not be
// replayed. Each outcome keeps the analyzer's evidence (who runs at once)
// apart from what was measured (what the layout costs here if they do).
func WriteText(w io.Writer, cal *Calibration, outs []Outcome, skipped []Skipped) error {
	var b strings.Builder
	if cal != nil {
		textfmt.Fill(&b, fmt.Sprintf("calibration: this host's sweep, %d rounds of %s: the reader runs %+.1f%% with the writer %d bytes away instead of on its line; each prediction below is that gain where the members share a line here, none where they are apart.",
			cal.Rounds, cal.Duration, 100*cal.Gain, cal.Far), "", "  ", 80)
		b.WriteString("\n")
	}
	for _, o := range outs {
		f := o.Finding
		fmt.Fprintf(&b, "%s: %s.%s (%s, %s)\n", o.Where, f.Object, f.Member, f.Rule.ID, f.Tier)
		textfmt.Fill(&b, "replayed: "+o.Describe(), "  ", "    ", 80)
		switch {
		case len(f.Writers) > 0 && len(f.Users) > 0:
			textfmt.Fill(&b, fmt.Sprintf("evidence that they run at once (the analyzer's): %s; %s", f.Writers[0], f.Users[0]), "  ", "    ", 80)
		case len(f.Declared) > 0:
			textfmt.Fill(&b, "evidence that they run at once (declared): "+f.Declared[0], "  ", "    ", 80)
		}
		c := o.Comparison
		var verdict string
		switch {
		case o.Measured:
			verdict = fmt.Sprintf("measured: the reader beside the writer runs %+.1f%% with the fix (p=%.3f over %d %s, n=%d+%d)",
				100*c.Delta, c.P, c.Tests, plural(c.Tests, "finding", "findings"), c.N1, c.N2)
		case c.Significant():
			verdict = fmt.Sprintf("not confirmed: the fix makes the reader %+.1f%% (p=%.3f, n=%d+%d), slower, not faster", 100*c.Delta, c.P, c.N1, c.N2)
		default:
			verdict = fmt.Sprintf("not confirmed: %+.1f%% (p=%.3f, n=%d+%d); this run could not have seen less than %s", 100*c.Delta, c.P, c.N1, c.N2, mde(c.MDE))
		}
		if o.Interrupted {
			verdict += " (interrupted: the rounds completed)"
		}
		prediction := "predicted: uncalibrated (no sweep of this host ran)"
		if p := o.Prediction; p != nil {
			prediction = fmt.Sprintf("predicted from this host's sweep: %+.1f%%", 100*p.Change)
			if p.Agrees {
				prediction += ", which the measurement agrees with"
			} else {
				prediction += "; DISAGREES with the measurement beyond 25 %, its MDE and 5 %"
			}
		}
		textfmt.Fill(&b, verdict, "  ", "    ", 80)
		textfmt.Fill(&b, prediction, "  ", "    ", 80)
		if o.Apart {
			textfmt.Fill(&b, fmt.Sprintf("apart here: on this host's %d-byte lines the members share no line, so the fix should change nothing", o.Line), "  ", "    ", 80)
		}
	}
	if len(skipped) > 0 {
		b.WriteString("\nnot replayed:\n")
		for _, s := range skipped {
			textfmt.Fill(&b, fmt.Sprintf("%s: %s: %s", s.Where, s.What, s.Why), "  ", "    ", 80)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mde(m float64) string {
	if m > 10 {
		return "any change (too few rounds)"
	}
	return fmt.Sprintf("±%.0f%%", 100*m)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// JSONOutcome is one outcome as confirm -format json writes it: the
// finding (as vet -json has it), what was replayed, and what was measured.
type JSONOutcome struct {
	Where    string                `json:"where"`
	Finding  *falsesharing.Finding `json:"finding"`
	Replayed string                `json:"replayed"`
	Line     int64                 `json:"line"`
	Phase    int64                 `json:"phase"`
	// Result is "measured" or "not confirmed".
	Result string `json:"result"`
	// Delta is the reader's change beside the writer with the fix, as a
	// fraction; P is corrected over the run's findings (Tests); MDE the
	// smallest change the run could have seen.
	Delta float64 `json:"delta"`
	P     float64 `json:"p"`
	RawP  float64 `json:"raw_p"`
	Tests int     `json:"tests"`
	N     [2]int  `json:"n"`
	MDE   float64 `json:"mde"`
	Apart bool    `json:"apart,omitempty"`
	// Predicted is the calibrated prediction, absent when uncalibrated;
	// Agrees says whether the measurement agrees with it.
	Predicted   *float64 `json:"predicted,omitempty"`
	Agrees      *bool    `json:"agrees,omitempty"`
	Interrupted bool     `json:"interrupted,omitempty"`
}

// JSONDocument is confirm -format json's document.
type JSONDocument struct {
	Calibration *Calibration  `json:"calibration"`
	Outcomes    []JSONOutcome `json:"outcomes"`
	Skipped     []Skipped     `json:"not_replayed"`
}

// WriteJSON writes the outcomes and the findings not replayed as one
// indented document.
func WriteJSON(w io.Writer, cal *Calibration, outs []Outcome, skipped []Skipped) error {
	doc := JSONDocument{Calibration: cal, Outcomes: []JSONOutcome{}, Skipped: skipped}
	if doc.Skipped == nil {
		doc.Skipped = []Skipped{}
	}
	for _, o := range outs {
		c := o.Comparison
		var predicted *float64
		var agrees *bool
		if p := o.Prediction; p != nil {
			predicted, agrees = &p.Change, &p.Agrees
		}
		doc.Outcomes = append(doc.Outcomes, JSONOutcome{Predicted: predicted, Agrees: agrees, Where: o.Where, Finding: o.Finding, Replayed: o.Describe(),
			Line: o.Line, Phase: o.Phase, Result: o.Result(), Delta: c.Delta, P: c.P, RawP: c.RawP, Tests: c.Tests,
			N: [2]int{c.N1, c.N2}, MDE: finiteMDE(c.MDE), Apart: o.Apart, Interrupted: o.Interrupted})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// WriteSARIF writes every finding of the run as vet's SARIF does, those
// measured carrying their measurement and ranked by it.
func WriteSARIF(w io.Writer, findings []*vet.Finding, outs []Outcome) error {
	measured := map[*vet.Finding]vet.Measured{}
	for _, f := range findings {
		for _, o := range outs {
			if o.Finding == f.Data() {
				measured[f] = vet.Measured{Result: o.Result(), Delta: o.Comparison.Delta, P: o.Comparison.P, MDE: finiteMDE(o.Comparison.MDE)}
			}
		}
	}
	return vet.WriteMeasuredSARIF(w, findings, measured)
}

// finiteMDE is an MDE as JSON can carry it: -1 where none could be seen
// (+Inf, too few rounds).
func finiteMDE(m float64) float64 {
	if math.IsInf(m, 0) {
		return -1
	}
	return m
}
