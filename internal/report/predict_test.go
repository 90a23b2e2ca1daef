package report

import (
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout/render"
)

// TestPrediction: the 2023 padding's extra 128-byte block for the coarse
// reader predicts nothing at the tick's rate, and a change beside an
// unthrottled tick; a measurement that finds a change where none is
// predicted disagrees, and so does one that finds none where a change is
// predicted from samples that would have seen a fifth.
func TestPrediction(t *testing.T) {
	d := render.DiffDocument{Rows: []render.DiffRow{
		{Path: "coarse", Line: 64, Phase: 0, Old: render.DiffFigures{Lines: []int64{0, 1}, Blocks128: 1}, New: render.DiffFigures{Lines: []int64{0, 2}, Blocks128: 2}},
		{Path: "counter", Line: 64, Phase: 0, Old: render.DiffFigures{Lines: []int64{0}, FalseLines: 1}, New: render.DiffFigures{Lines: []int64{1}}},
	}}
	text, measurable := prediction(d, 64, "coarse", false)
	if measurable || !strings.HasSuffix(text, "no measurable change") {
		t.Errorf("coarse at its writers' rates: %q, %v", text, measurable)
	}
	if _, measurable := prediction(d, 64, "coarse", true); !measurable {
		t.Error("coarse beside unthrottled writers: no change predicted")
	}
	if text, measurable := prediction(d, 64, "counter", false); !measurable || !strings.HasPrefix(text, "falsely shared lines 1 → 0") {
		t.Errorf("counter: %q, %v", text, measurable)
	}
	small, large := 0.05, 0.9
	for _, c := range []struct {
		significant, measurable bool
		mde                     *float64
		want                    bool
	}{
		{true, false, &small, true},
		{false, false, &small, false},
		{false, true, &small, true},
		{false, true, &large, false},
		{false, true, nil, false},
		{true, true, &small, false},
	} {
		if got := disagrees(Comparison{Predicted: "x", Significant: c.significant, MDE: c.mde}, c.measurable); got != c.want {
			t.Errorf("significant %v, measurable %v, mde %v: disagrees %v, want %v", c.significant, c.measurable, c.mde, got, c.want)
		}
	}
}
