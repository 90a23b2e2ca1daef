package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/probe/stats"
)

// Conclusion is one change of the scenario (a diff) in one line, the
// line every format prints first: the static verdict per line size, the
// measurement that speaks for the change with its 95 % interval, n,
// corrected p and MDE, and whether it agrees with the prediction.
type Conclusion struct {
	Old    string `json:"old"`
	New    string `json:"new"`
	Static string `json:"static"` // "worse at 64 B and 128 B"
	// Measured is the measurement that speaks for the change: one that
	// contradicts its prediction first, else the most significant, else
	// the one that could have seen the smallest change; nil when none ran.
	Measured *Comparison `json:"measured,omitempty"`
	// Outcome is "confirmed", "not confirmed", "too noisy to tell",
	// "against the prediction" or "not measured".
	Outcome string `json:"outcome"`
	Text    string `json:"text"` // the line
}

// tooNoisy is the smallest change a measurement must be able to see for
// its figure to mean anything: a run that could not have seen a change of
// half the rate says only that it was too noisy to tell.
const tooNoisy = 0.5

// conclude makes the conclusions of the report's verdicts, one per diff.
func (r *Report) conclude() {
	r.Conclusions = []Conclusion{}
	for _, d := range r.Diffs {
		c := Conclusion{Old: d.Old, New: d.New, Outcome: "not measured"}
		byVerdict := map[string][]string{}
		var order []string
		for _, v := range r.Verdicts {
			if v.Old != d.Old || v.New != d.New {
				continue
			}
			if _, ok := byVerdict[v.Static]; !ok {
				order = append(order, v.Static)
			}
			byVerdict[v.Static] = append(byVerdict[v.Static], fmt.Sprintf("%d B", v.Line))
			for i := range v.Measured {
				if m := &v.Measured[i]; speaksBefore(m, c.Measured) {
					c.Measured = m
				}
			}
		}
		var static []string
		for _, s := range order {
			static = append(static, s+" at "+textfmt.JoinWords(byVerdict[s]))
		}
		c.Static = strings.Join(static, ", ")
		text := fmt.Sprintf("%s → %s: static %s", d.Old, d.New, c.Static)
		if m := c.Measured; m != nil {
			c.Outcome = outcome(m)
			text += fmt.Sprintf("; measured %s (%s): %s", m.Path, m.Probe, measuredWords(m, c.Outcome))
		} else {
			text += "; not measured"
			if why := r.skipped(d.Old, d.New); why != "" {
				text += ": " + why
			}
		}
		c.Text = text
		r.Conclusions = append(r.Conclusions, c)
	}
}

// skipped is why the probe of a change's two layouts did not run, if
// one was planned.
func (r *Report) skipped(old, new string) string {
	for _, p := range r.Probes {
		if p.Skipped != "" && slices.Contains(p.Variants, old) && slices.Contains(p.Variants, new) {
			return p.Skipped
		}
	}
	return ""
}

// speaksBefore reports whether measurement a speaks for a change before
// b: one against its prediction first, then a significant one, the
// smaller p first, then the one that could have seen less.
func speaksBefore(a, b *Comparison) bool {
	if b == nil {
		return true
	}
	if a.Disagrees != b.Disagrees {
		return a.Disagrees
	}
	if a.Significant != b.Significant {
		return a.Significant
	}
	if a.Significant {
		return a.P < b.P
	}
	return a.mde() < b.mde()
}

// outcome names what a measurement says of its change.
func outcome(m *Comparison) string {
	switch {
	case m.Disagrees:
		return "against the prediction"
	case m.Significant:
		return "confirmed"
	case m.Noisy():
		return "too noisy to tell"
	}
	return "not confirmed"
}

// measuredWords is a measurement as the conclusion states it: the change
// with its interval, n, p and MDE, then what it says, with the
// prediction.
func measuredWords(m *Comparison, outcome string) string {
	var s string
	if outcome == "too noisy to tell" {
		s = fmt.Sprintf("too noisy to tell (could not have seen less than %s), n=%d, p=%.3f", stats.MDEPercent(m.mde()), m.N, m.P)
	} else {
		s = fmt.Sprintf("%+.1f%%", 100*m.Delta)
		if m.Interval != nil {
			s += fmt.Sprintf(" [%+.1f%%, %+.1f%%]", 100*m.Interval[0], 100*m.Interval[1])
		}
		s += fmt.Sprintf(", n=%d, p=%.3f", m.N, m.P)
		if m.Tests > 1 {
			s += fmt.Sprintf(" (Holm, %d)", m.Tests)
		}
		s += ": " + outcome
		if !m.Significant {
			s += "; could not have seen less than " + stats.MDEPercent(m.mde())
		}
	}
	switch {
	case m.Predicted == "":
	case m.Disagrees:
		s += "; predicted " + predictionGist(m) + ", which it contradicts"
	default:
		s += "; predicted " + predictionGist(m) + ", which it agrees with"
	}
	return s
}

// predictionGist is a prediction's conclusion: the cost model's figure,
// or the words after its last colon ("no measurable change").
func predictionGist(m *Comparison) string {
	if m.PredictedChange != nil {
		return fmt.Sprintf("%+.1f%%", 100**m.PredictedChange)
	}
	p := m.Predicted
	if i := strings.LastIndex(p, ": "); i >= 0 {
		p = p[i+2:]
	}
	return p
}

// Noisy reports whether a measurement found nothing and could not have
// seen a change of half the rate: its figure means nothing.
func (c Comparison) Noisy() bool { return !c.Significant && c.mde() > tooNoisy }

// Shown is a measured change as every format shows it: the change, "~"
// for none significant, or "too noisy to tell".
func (c Comparison) Shown() string {
	if c.Noisy() {
		return "too noisy to tell"
	}
	return c.Text
}
