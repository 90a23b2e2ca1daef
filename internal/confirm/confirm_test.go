package confirm

import (
	"slices"
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/falsesharing"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe/costmodel"
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
	e, err := Plan(finding("updates"), pair(t, 0), 64, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Writer.String() + "; " + e.Reader.String(); got != "writer cpus=1 rate=hot add=requests; reader cpus=1 rate=hot read=limit" {
		t.Errorf("paths %q", got)
	}
	if e.Emulated() || e.Line != 64 || e.Phase != 0 {
		t.Errorf("emulated %v at %d B phase %d, want 64-byte lines natively at phase 0", e.Emulated(), e.Line, e.Phase)
	}
	fr, fl := e.Fixed.Layout.Field("requests"), e.Fixed.Layout.Field("limit")
	if fl.Offset-fr.End() < 56 {
		t.Errorf("the fix puts requests at %d and limit at %d: they can share a 64-byte line", fr.Offset, fl.Offset)
	}
	if !strings.Contains(e.Describe(), "limit 8→") {
		t.Errorf("Describe() = %q, want where the fix puts limit", e.Describe())
	}
}

// TestPlanRefuses checks the findings that cannot be replayed, each with
// its reason.
func TestPlanRefuses(t *testing.T) {
	noPair := finding("updates")
	noPair.Partners = nil
	far := finding("updates")
	far.Holds = []falsesharing.Holding{{GOARCH: "arm64", Line: 128}}
	for _, tc := range []struct {
		f    *falsesharing.Finding
		gap  int64
		want string
	}{
		{noPair, 0, "no pair of members and no table"},
		{finding("locks"), 0, "cannot replay a side that locks requests"},
		{far, 120, "share no line at any phase of 64 or 128 bytes"},
	} {
		if _, err := Plan(tc.f, pair(t, tc.gap), 64, true); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Plan: %v, want an error saying %q", err, tc.want)
		}
	}
}

// TestPredict checks that an experiment is predicted from the curve of
// its own operation kinds, between the relations its two layouts give,
// and that a calibration lacking its kinds or its line size says so.
func TestPredict(t *testing.T) {
	e, err := Plan(finding("updates"), pair(t, 0), 64, true)
	if err != nil {
		t.Fatal(err)
	}
	// The fix pads to the host's 64-byte lines: the two end on the
	// adjacent lines of a 128-byte pair.
	if e.From != costmodel.SameLine || e.To != costmodel.AdjacentLine {
		t.Fatalf("relations %q → %q, want same line → adjacent line", e.From, e.To)
	}
	rates := func(same, adjacent, far float64) map[costmodel.Relation]costmodel.Rates {
		return map[costmodel.Relation]costmodel.Rates{costmodel.SameLine: {Reader: same, Writer: 1}, costmodel.AdjacentLine: {Reader: adjacent, Writer: 1}, costmodel.Apart: {Reader: far, Writer: 2}}
	}
	cal := &costmodel.Calibration{Host: "test", Line: 64, Curves: []*costmodel.Curve{
		{Writer: "add", Reader: "read", Rates: rates(10, 20, 30)},
		{Writer: "add", Reader: "add", Rates: rates(10, 10, 50)},
	}}
	p, why := predict(cal, e, stats.Comparison{Delta: 2, MDE: 0.1})
	if p == nil || p.Reader != 1 || p.Writer != 0 || p.Agrees {
		t.Errorf("predict = %+v (%s), want the reader +100%%, the writer 0, disagreeing with +200%%", p, why)
	}
	e.Reader.Accesses[0].Op = access.Write
	if p, why := predict(cal, e, stats.Comparison{}); p != nil || !strings.Contains(why, "no writer that does add beside a reader that does write") {
		t.Errorf("predict of uncalibrated kinds = %+v, %q", p, why)
	}
	e.HostLine = 128
	if p, why := predict(cal, e, stats.Comparison{}); p != nil || !strings.Contains(why, "64-byte lines, this host's are 128") {
		t.Errorf("predict on another line size = %+v, %q", p, why)
	}
}

// TestPlanEmulated checks that a finding of 128-byte lines whose members
// share no 64-byte line is replayed under the emulation of 128-byte
// lines, where they share one, and fixed apart at 128.
func TestPlanEmulated(t *testing.T) {
	f := finding("updates")
	f.Holds = []falsesharing.Holding{{GOARCH: "arm64", Line: 128}}
	e, err := Plan(f, pair(t, 56), 64, true)
	if err != nil {
		t.Fatal(err)
	}
	if !e.Emulated() || e.Line != 128 || e.HostLine != 64 {
		t.Errorf("emulated %v at %d B on %d B; want 128-byte lines emulated on 64", e.Emulated(), e.Line, e.HostLine)
	}
	if e.From != costmodel.SameLine || e.To != costmodel.Apart {
		t.Errorf("relations %q → %q, want same line → apart", e.From, e.To)
	}
	if !strings.Contains(e.Describe(), "emulated on 64-byte lines") {
		t.Errorf("Describe() = %q, want it to say the lines are emulated", e.Describe())
	}
}

// TestPlanNative checks the same finding without emulation: replayed on
// this host's 64-byte lines as the type lies there, the members already
// on adjacent lines, the fix moving them apart for 128-byte lines.
func TestPlanNative(t *testing.T) {
	f := finding("updates")
	f.Holds = []falsesharing.Holding{{GOARCH: "arm64", Line: 128}}
	e, err := Plan(f, pair(t, 56), 64, false)
	if err != nil {
		t.Fatal(err)
	}
	if e.Emulated() || e.Line != 64 || e.Phase != 0 {
		t.Errorf("emulated %v at %d B phase %d; want this host's 64-byte lines at phase 0", e.Emulated(), e.Line, e.Phase)
	}
	if e.From != costmodel.AdjacentLine || e.To != costmodel.Apart {
		t.Errorf("relations %q → %q, want adjacent line → apart", e.From, e.To)
	}
}

// TestPlanTable checks a finding of a table: two writers on elements 0
// and 1, which share a line as laid out, and in the fix two elements
// padded to the largest line the finding holds at, at the same phase.
func TestPlanTable(t *testing.T) {
	s := &layout.Struct{Name: "p.Counters", Source: layout.SourceGo, Arch: "amd64", Size: 64, Align: 8, Decl: "Counters", Fields: []layout.Field{
		{Path: "slots", Name: "slots", Type: "[8]uint64", Offset: 0, Size: 64, Align: 8, Kind: layout.KindArray, Len: 8, Parent: -1},
	}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	f := &falsesharing.Finding{Rule: falsesharing.Rules[0], Object: "Counters", Member: "slots",
		Users: []falsesharing.Side{{Op: "(*Counters).Inc", Does: "updates", Member: "an element of slots"}},
		Holds: []falsesharing.Holding{{GOARCH: "amd64", Line: 64}, {GOARCH: "arm64", Line: 128}}}
	e, err := Plan(f, &sharing.Object{Layout: s}, 64, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Writer.String() + "; " + e.Reader.String(); got != "writer cpus=1 rate=hot add=slots[0]; reader cpus=1 rate=hot add=slots[1]" {
		t.Errorf("paths %q", got)
	}
	if e.Stride != 128 || e.Fixed.Layout.Field("element1").Offset != 128 || e.Phase != 0 || e.FixedPhase != 0 {
		t.Errorf("stride %d, element 1 at %d, phases %d and %d; want 128, 128, 0 and 0", e.Stride, e.Fixed.Layout.Field("element1").Offset, e.Phase, e.FixedPhase)
	}
	if e.From != costmodel.SameLine || e.To != costmodel.Apart {
		t.Errorf("relations %q → %q, want same line → apart", e.From, e.To)
	}
	if !strings.Contains(e.Describe(), "elements 0 and 1") {
		t.Errorf("Describe() = %q", e.Describe())
	}
}

// TestPlanSliceTable checks a table whose elements the type does not
// hold (a slice's backing array): two elements of the finding's element
// size at its stride, as laid out, and padded apart.
func TestPlanSliceTable(t *testing.T) {
	s := &layout.Struct{Name: "p.Queue", Source: layout.SourceGo, Arch: "amd64", Size: 24, Align: 8, Decl: "Queue", Fields: []layout.Field{
		{Path: "ring", Name: "ring", Type: "[]slot", Offset: 0, Size: 24, Align: 8, Parent: -1},
	}}
	f := &falsesharing.Finding{Rule: falsesharing.Rules[0], Object: "Queue", Member: "ring", Element: 24, Stride: 24,
		Users: []falsesharing.Side{{Op: "(*Queue).Push", Does: "stores", Member: "an element of ring"}}}
	e, err := Plan(f, &sharing.Object{Layout: s}, 64, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Writer.String() + "; " + e.Reader.String(); got != "writer cpus=1 rate=hot write=element0; reader cpus=1 rate=hot write=element1" {
		t.Errorf("paths %q", got)
	}
	if e.AsIs.Layout.Field("element1").Offset != 24 || e.Stride != 64 || e.From != costmodel.SameLine || e.To != costmodel.AdjacentLine {
		t.Errorf("element 1 at %d, padded to %d, %q → %q; want 24, 64, same line → adjacent line", e.AsIs.Layout.Field("element1").Offset, e.Stride, e.From, e.To)
	}
}

// TestPlanFixedMoved checks that a fix whose size class cannot start at
// the phase where the finding holds (a 128-byte heap object starts only
// at 0 of a 64-byte line) is replayed at that phase all the same, so that
// the two layouts compare alone.
func TestPlanFixedMoved(t *testing.T) {
	e, err := Plan(finding("updates"), pair(t, 0), 64, true)
	if err != nil {
		t.Fatal(err)
	}
	heap := placement.Policy{placement.Heap}
	fixed := pair(t, 112) // 128 bytes, limit at 120
	fixed.Paths, fixed.Placement = e.Fixed.Paths, heap
	if phases, _ := fixed.Phases(64); !slices.Equal(phases, []int64{0}) {
		t.Fatalf("a 128-byte heap object starts at %v of a 64-byte line, want 0 only", phases)
	}
	e.Fixed, e.Phase = fixed, 16
	e.placeFixed()
	if !e.FixedMoved || e.Phase != 16 || e.AsIsPhase != 16 || e.FixedPhase != 16 {
		t.Errorf("moved %v, phases %d, %d and %d; want the fix replayed at 16", e.FixedMoved, e.Phase, e.AsIsPhase, e.FixedPhase)
	}
	if !strings.Contains(e.Describe(), "its size class would start it elsewhere") {
		t.Errorf("Describe() = %q", e.Describe())
	}
}

// TestPlanTableWholeLines checks a table whose elements are already a
// whole 128-byte line each: they share a line only where the table
// starts inside one (phase 8), and the fix must move the second element
// past the first's last line at that phase, not keep the stride it has.
func TestPlanTableWholeLines(t *testing.T) {
	s := &layout.Struct{Name: "p.Shards", Source: layout.SourceGo, Arch: "amd64", Size: 512, Align: 8, Decl: "Shards", Fields: []layout.Field{
		{Path: "shards", Name: "shards", Type: "[4][16]uint64", Offset: 0, Size: 512, Align: 8, Kind: layout.KindArray, Len: 4, Parent: -1},
	}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	f := &falsesharing.Finding{Rule: falsesharing.Rules[0], Object: "Shards", Member: "shards",
		Users: []falsesharing.Side{{Op: "(*Shards).Inc", Does: "updates", Member: "an element of shards"}},
		Holds: []falsesharing.Holding{{GOARCH: "amd64", Line: 64}, {GOARCH: "arm64", Line: 128}}}
	e, err := Plan(f, &sharing.Object{Layout: s}, 64, true)
	if err != nil {
		t.Fatal(err)
	}
	if e.From != costmodel.SameLine || e.To == costmodel.SameLine {
		t.Errorf("at phase %d: %q → %q, want the fix to leave the line", e.Phase, e.From, e.To)
	}
	e1 := e.Fixed.Layout.Field("element1")
	if got := (e.FixedPhase + e1.Offset) % 128; got != 0 {
		t.Errorf("the fix's element 1 starts %d bytes into a 128-byte line, want 0", got)
	}
}
