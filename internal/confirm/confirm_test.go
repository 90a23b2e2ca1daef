package confirm

import (
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/falsesharing"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe/stats"
)

// pair is a Go struct of a hot counter and, gap bytes after it, a
// read-mostly limit, placed by the allocator.
func pair(t *testing.T, gap int64) *sharing.Object {
	t.Helper()
	s := &layout.Struct{Name: "p.Stats", Source: layout.SourceGo, Arch: "amd64", Align: 8, Decl: "Stats", Fields: []layout.Field{
		{Path: "requests", Name: "requests", Type: "int64", Offset: 0, Size: 8, Align: 8, Parent: -1},
	}}
	if gap > 0 {
		s.Fields = append(s.Fields, layout.Field{Path: "_", Name: "_", Type: "[56]byte", Offset: 8, Size: gap, Align: 1, Kind: layout.KindArray, Len: gap, Parent: -1})
	}
	s.Fields = append(s.Fields, layout.Field{Path: "limit", Name: "limit", Type: "int64", Offset: 8 + gap, Size: 8, Align: 8, Parent: -1})
	s.Size = 16 + gap
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return &sharing.Object{Layout: s, Placement: nil}
}

func finding(does string) *falsesharing.Finding {
	return &falsesharing.Finding{Rule: falsesharing.Rules[1], Object: "Stats", Member: "requests", Partners: []string{"limit"},
		Writers: []falsesharing.Side{{Op: "Serve", Does: does, Member: "requests"}},
		Users:   []falsesharing.Side{{Op: "Allow", Does: "reads", Member: "limit"}}}
}

// TestPlan checks the experiment a finding becomes: the writer's update
// as an atomic add, the user's read as a load, a phase where the two
// share a line, and a fix that puts them on lines of their own.
func TestPlan(t *testing.T) {
	e, err := Plan(finding("updates"), pair(t, 0), 64)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Writer.String() + "; " + e.Reader.String(); got != "writer cpus=1 rate=hot add=requests; reader cpus=1 rate=hot read=limit" {
		t.Errorf("paths %q", got)
	}
	if e.Apart || e.Phase != 0 {
		t.Errorf("apart %v at phase %d, want sharing at phase 0", e.Apart, e.Phase)
	}
	fr, fl := e.Fixed.Layout.Field("requests"), e.Fixed.Layout.Field("limit")
	if fl.Offset-fr.End() < 56 {
		t.Errorf("the fix puts requests at %d and limit at %d: they can share a 64-byte line", fr.Offset, fl.Offset)
	}
	if !strings.Contains(e.Describe(), "limit 8→") {
		t.Errorf("Describe() = %q, want where the fix puts limit", e.Describe())
	}
}

// TestPlanApart checks a pair that shares no 64-byte line at any phase:
// replayed as laid out, marked apart, fixed for the finding's 128-byte
// lines.
func TestPlanApart(t *testing.T) {
	f := finding("updates")
	f.Holds = []falsesharing.Holding{{GOARCH: "arm64", Line: 128}}
	e, err := Plan(f, pair(t, 56), 64)
	if err != nil {
		t.Fatal(err)
	}
	if !e.Apart {
		t.Errorf("members 64 bytes apart on 64-byte lines are not marked apart")
	}
	fr, fl := e.Fixed.Layout.Field("requests"), e.Fixed.Layout.Field("limit")
	if fl.Offset-fr.End() < 120 {
		t.Errorf("the fix puts requests at %d and limit at %d: they can share a 128-byte line", fr.Offset, fl.Offset)
	}
}

// TestPlanRefuses checks the findings that cannot be replayed, each with
// its reason.
func TestPlanRefuses(t *testing.T) {
	noPair := finding("updates")
	noPair.Partners = nil
	for _, tc := range []struct {
		f    *falsesharing.Finding
		want string
	}{
		{noPair, "no pair of members"},
		{finding("locks"), "cannot replay a side that locks requests"},
	} {
		if _, err := Plan(tc.f, pair(t, 0), 64); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Plan: %v, want an error saying %q", err, tc.want)
		}
	}
}

// TestAgrees checks the rule a prediction is held to: within 25 % of the
// measured change, its MDE, or the noise floor of a shared host.
func TestAgrees(t *testing.T) {
	for _, tc := range []struct {
		predicted, delta, mde float64
		want                  bool
	}{
		{1.95, 1.92, 0.1, true},   // the fresh pair on this VM
		{1.95, 3.9, 0.1, false},   // twice the prediction
		{1.95, 1.5, 0.5, true},    // within the MDE
		{0, -0.044, 0.01, true},   // apart: a few per cent is no change
		{0, 0.3, 0.1, false},      // apart, yet 30 % faster
		{1.95, 0.02, 0.03, false}, // shared, yet no change
	} {
		c := stats.Comparison{Delta: tc.delta, MDE: tc.mde}
		if got := Agrees(tc.predicted, c); got != tc.want {
			t.Errorf("Agrees(%v, delta %v, MDE %v) = %v, want %v", tc.predicted, tc.delta, tc.mde, got, tc.want)
		}
	}
	cal := &Calibration{Gain: 1.5}
	if p := cal.Predict(&Experiment{Apart: true}); p != 0 {
		t.Errorf("a pair apart is predicted %v, want 0", p)
	}
	if p := cal.Predict(&Experiment{}); p != 1.5 {
		t.Errorf("a shared pair is predicted %v, want the calibration's 1.5", p)
	}
}
