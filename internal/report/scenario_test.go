package report

import (
	"testing"

	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe"
)

// TestVariantsScenario checks the scenario of layouts named on a command
// line: the first diffed against each other one-object variant, all
// probed together.
func TestVariantsScenario(t *testing.T) {
	sc, err := KernelScenario()
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := sc.Objects[0], sc.Objects[1], sc.Objects[2]
	got := VariantsScenario([]probe.Variant{
		{Name: "a", Objects: []*sharing.Object{a}},
		{Name: "b", Objects: []*sharing.Object{b}},
		{Name: "c+a", Objects: []*sharing.Object{c, a}},
	})
	if len(got.Objects) != 4 || len(got.Diffs) != 1 || got.Diffs[0] != [2]*sharing.Object{a, b} {
		t.Errorf("objects %d, diffs %v: want 4 objects and a diffed against b only", len(got.Objects), got.Diffs)
	}
	if len(got.Probes) != 1 || got.Probes[0].Title != "a vs b vs c+a" || len(got.Probes[0].Variants) != 3 {
		t.Errorf("probes %+v: want one of the three variants", got.Probes)
	}
}
