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
	"github.com/mglayout/mglayout/probe/costmodel"
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
func WriteText(w io.Writer, cal *costmodel.Calibration, outs []Outcome, skipped []Skipped) error {
	var b strings.Builder
	if cal != nil {
		writeCalibration(&b, cal)
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
			verdict = fmt.Sprintf("measured: %s runs %+.1f%% with the fix (p=%.3f over %d %s, n=%d+%d)",
				o.measuredSide(), 100*c.Delta, c.P, c.Tests, textfmt.Plural(c.Tests, "finding", "findings"), c.N1, c.N2)
		case c.Significant():
			verdict = fmt.Sprintf("not confirmed: the fix makes the reader %+.1f%% (p=%.3f, n=%d+%d), slower, not faster", 100*c.Delta, c.P, c.N1, c.N2)
		default:
			verdict = fmt.Sprintf("not confirmed: %+.1f%% (p=%.3f, n=%d+%d); this run could not have seen less than %s", 100*c.Delta, c.P, c.N1, c.N2, mde(c.MDE))
		}
		if o.Interrupted {
			verdict += " (interrupted: the rounds completed)"
		}
		prediction := "predicted: " + o.Uncalibrated
		if p := o.Prediction; p != nil {
			prediction = fmt.Sprintf("predicted (%s, %s → %s): the reader %+.1f%%, the writer %+.1f%%",
				o.Kinds(), o.From, o.To, 100*p.Reader, 100*p.Writer)
			if p.Agrees {
				prediction += "; the measurement agrees"
			} else {
				prediction += "; DISAGREES with the measurement beyond 25 %, its MDE and 5 %"
			}
		}
		textfmt.Fill(&b, verdict, "  ", "    ", 80)
		textfmt.Fill(&b, prediction, "  ", "    ", 80)
		if o.From != costmodel.SameLine {
			textfmt.Fill(&b, fmt.Sprintf("not on one line here: on this host's %d-byte lines the members lie %s as the type is; the fix saves only what that costs", o.HostLine, relationWords[o.From]), "  ", "    ", 80)
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

// relationWords say where one member lies from the other.
var relationWords = map[costmodel.Relation]string{
	costmodel.AdjacentLine: "on adjacent lines of a 128-byte pair",
	costmodel.Apart:        "apart",
}

// writeCalibration says which calibration the predictions come from and
// what it measured.
func writeCalibration(b *strings.Builder, cal *costmodel.Calibration) {
	textfmt.Fill(b, fmt.Sprintf("calibration: %s, %d-byte lines, CPUs %d and %d, %d rounds of %s; the reader's and the writer's operations per second with the writer's word on the reader's line, on the adjacent line, and far:",
		cal.Host, cal.Line, cal.CPUs[0], cal.CPUs[1], cal.Rounds, cal.Duration), "", "  ", 80)
	for _, cv := range cal.Curves {
		var parts []string
		for _, r := range costmodel.Relations {
			x := cv.Rates[r]
			parts = append(parts, fmt.Sprintf("%s %s/%s", r, textfmt.SI(x.Reader), textfmt.SI(x.Writer)))
		}
		textfmt.Fill(b, fmt.Sprintf("%s/%s: %s", cv.Writer, cv.Reader, strings.Join(parts, ", ")), "  ", "    ", 80)
	}
	for _, cv := range cal.Caveats() {
		textfmt.Fill(b, "caveat: "+cv, "  ", "    ", 80)
	}
	b.WriteString("\n")
}

func mde(m float64) string {
	if m > 10 {
		return "any change (too few rounds)"
	}
	return fmt.Sprintf("±%.0f%%", 100*m)
}

// JSONOutcome is one outcome as confirm -format json writes it: the
// finding (as vet -json has it), what was replayed, and what was measured.
type JSONOutcome struct {
	Where    string                `json:"where"`
	Finding  *falsesharing.Finding `json:"finding"`
	Replayed string                `json:"replayed"`
	Line     int64                 `json:"line"`
	HostLine int64                 `json:"host_line"`
	Emulated bool                  `json:"emulated,omitempty"`
	// Phase is the phase both layouts ran at, -1 where each ran at its
	// own first (AsIsPhase, FixedPhase).
	Phase      int64 `json:"phase"`
	AsIsPhase  int64 `json:"as_is_phase"`
	FixedPhase int64 `json:"fixed_phase"`
	// Kinds are the two sides' operations; From and To where the
	// writer's word lies from the reader's, as is and fixed.
	Kinds string             `json:"kinds"`
	From  costmodel.Relation `json:"from"`
	To    costmodel.Relation `json:"to"`
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
	// Predicted is the cost model's prediction of the reader's change,
	// PredictedWriter the writer's, absent when uncalibrated
	// (Uncalibrated says why); Agrees says whether the measurement agrees.
	Predicted       *float64 `json:"predicted,omitempty"`
	PredictedWriter *float64 `json:"predicted_writer,omitempty"`
	Agrees          *bool    `json:"agrees,omitempty"`
	Uncalibrated    string   `json:"uncalibrated,omitempty"`
	Interrupted     bool     `json:"interrupted,omitempty"`
}

// JSONDocument is confirm -format json's document.
type JSONDocument struct {
	Calibration *costmodel.Calibration `json:"calibration"`
	Outcomes    []JSONOutcome          `json:"outcomes"`
	Skipped     []Skipped              `json:"not_replayed"`
}

// WriteJSON writes the outcomes and the findings not replayed as one
// indented document.
func WriteJSON(w io.Writer, cal *costmodel.Calibration, outs []Outcome, skipped []Skipped) error {
	doc := JSONDocument{Calibration: cal, Outcomes: []JSONOutcome{}, Skipped: skipped}
	if doc.Skipped == nil {
		doc.Skipped = []Skipped{}
	}
	for _, o := range outs {
		c := o.Comparison
		j := JSONOutcome{Where: o.Where, Finding: o.Finding, Replayed: o.Describe(),
			Line: o.Line, HostLine: o.HostLine, Emulated: o.Emulated(), Phase: o.Phase, AsIsPhase: o.AsIsPhase, FixedPhase: o.FixedPhase,
			Kinds: o.Kinds().String(), From: o.From, To: o.To, Uncalibrated: o.Uncalibrated, Result: o.Result(), Delta: c.Delta, P: c.P, RawP: c.RawP, Tests: c.Tests,
			N: [2]int{c.N1, c.N2}, MDE: finiteMDE(c.MDE), Interrupted: o.Interrupted}
		if p := o.Prediction; p != nil {
			j.Predicted, j.PredictedWriter, j.Agrees = &p.Reader, &p.Writer, &p.Agrees
		}
		doc.Outcomes = append(doc.Outcomes, j)
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
