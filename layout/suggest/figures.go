package suggest

import (
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Figures compares the declared layout with the suggested one on the
// paths of the suggestion, at the line sizes given, each placed as the
// object is: the before and after a reviewer reads. It is nil when the
// suggestion changes nothing.
func (r *Result) Figures(lines []int64) (*diff.Result, error) {
	if len(r.Reordered) == 0 && len(r.Padding) == 0 {
		return nil, nil
	}
	analyze := func(l *layout.Struct) (*sharing.ObjectAnalysis, error) {
		a, err := sharing.Analyze([]*sharing.Object{r.Object.Relaid(l)}, lines)
		if err != nil {
			return nil, err
		}
		return &a.Objects[0], nil
	}
	before, err := analyze(r.Original)
	if err != nil {
		return nil, err
	}
	suggested := *r.Suggested
	suggested.Name += " (suggested)"
	after, err := analyze(&suggested)
	if err != nil {
		return nil, err
	}
	return diff.Compare(before, after, lines)
}
