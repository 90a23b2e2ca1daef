package costmodel

import (
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/sharing"
)

// object is four 8-byte words, a, b, c and d, with the paths given.
func object(t *testing.T, name string, order []string, paths ...string) *sharing.Object {
	t.Helper()
	s := &layout.Struct{Name: name, Source: layout.SourceGo, Arch: "amd64", Size: 8 * int64(len(order)), Align: 64}
	for i, m := range order {
		s.Fields = append(s.Fields, layout.Field{Path: m, Name: m, Type: "uint64", Offset: 8 * int64(i), Size: 8, Align: 8, Parent: -1})
	}
	if m := len(order); m > 4 {
		s.Fields[m-1].Offset = 64
		s.Size = 72
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	o := &sharing.Object{Layout: s}
	for _, spec := range paths {
		p, err := access.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		o.Paths = append(o.Paths, p)
	}
	return o
}

func analyze(t *testing.T, o *sharing.Object) *sharing.ObjectAnalysis {
	t.Helper()
	a, err := sharing.Analyze([]*sharing.Object{o}, []int64{64})
	if err != nil {
		t.Fatal(err)
	}
	return &a.Objects[0]
}

// TestKindsOn checks what each side is taken to do on a line: the
// writer's strongest write (a seqlock's increments are adds), the
// other's strongest access (a store where it stores too).
func TestKindsOn(t *testing.T) {
	o := object(t, "T", []string{"a", "b", "c", "d"},
		"w cpus=1 seqwrite=a write=b", "r cpus=1 read=c write=d", "q cpus=1 seqread=a read=c")
	oa := analyze(t, o)
	cs := &oa.Cases[0]
	for _, tc := range []struct {
		writer, other string
		want          Kinds
	}{
		{"w", "r", Kinds{access.Add, access.Write}},
		{"w", "q", Kinds{access.Add, access.Read}},
		{"r", "q", Kinds{access.Write, access.Read}},
	} {
		if got := KindsOn(o, cs, 0, pathNamed(o, tc.writer), pathNamed(o, tc.other)); got != tc.want {
			t.Errorf("KindsOn(%s, %s) = %s, want %s", tc.writer, tc.other, got, tc.want)
		}
	}
}

// TestDiffChanges checks a comparison's prediction: the reader that
// leaves a hot writer's line for the adjacent line of its 128-byte pair
// gains what the calibration's adjacent line saves, not what far does,
// the writer too; the reverse loses as much.
func TestDiffChanges(t *testing.T) {
	c := calibration()
	paths := []string{"w cpus=1 add=a", "r cpus=1 read=b"}
	shared := analyze(t, object(t, "Shared", []string{"a", "b", "c", "d"}, paths...))
	apart := analyze(t, object(t, "Apart", []string{"a", "c", "d", "x", "b"}, paths...))
	r, err := diff.Compare(shared, apart, []int64{64})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, pc := range c.DiffChanges(r, 64, false) {
		got[pc.Path] = pc.Change
	}
	if got["r"] != 1 || got["w"] != 0.25 {
		t.Errorf("Shared → Apart: %v, want r +100%%, w +25%% (the adjacent line)", got)
	}
	if r, err = diff.Compare(apart, shared, []int64{64}); err != nil {
		t.Fatal(err)
	}
	for _, pc := range c.DiffChanges(r, 64, false) {
		if pc.Path == "r" && pc.Change != -0.5 {
			t.Errorf("Apart → Shared: r %+v, want -50%%", pc.Change)
		}
	}
}
