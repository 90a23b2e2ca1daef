package layout_test

import (
	"slices"
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/layout"
)

// sample is a hand-built struct, laid out as a C compiler would:
//
//	struct sample {          // size 48, align 8
//		char  c;             // 0
//		                     // 7-byte hole
//		struct {             // 8, size 24
//			int   i;         // 8
//			                 // 4-byte hole
//			long  l;         // 16
//			short s;         // 24
//			                 // 6 bytes of tail padding
//		} in;
//		union {              // 32, size 8
//			long  a;
//			int   b;
//		} u;
//		int   last;          // 40
//		                     // 4 bytes of tail padding
//	};
func sample() *layout.Struct {
	return &layout.Struct{
		Name: "sample", Source: layout.SourceDWARF, Arch: "amd64", Size: 48, Align: 8,
		Fields: []layout.Field{
			{Path: "c", Name: "c", Type: "char", Offset: 0, Size: 1, Align: 1, Parent: -1},
			{Path: "in", Name: "in", Type: "struct", Offset: 8, Size: 24, Align: 8, Kind: layout.KindStruct, Parent: -1},
			{Path: "in.i", Name: "i", Type: "int", Offset: 8, Size: 4, Align: 4, Depth: 1, Parent: 1},
			{Path: "in.l", Name: "l", Type: "long", Offset: 16, Size: 8, Align: 8, Depth: 1, Parent: 1},
			{Path: "in.s", Name: "s", Type: "short", Offset: 24, Size: 2, Align: 2, Depth: 1, Parent: 1},
			{Path: "u", Name: "u", Type: "union", Offset: 32, Size: 8, Align: 8, Kind: layout.KindUnion, Parent: -1},
			{Path: "u.a", Name: "a", Type: "long", Offset: 32, Size: 8, Align: 8, Depth: 1, Parent: 5},
			{Path: "u.b", Name: "b", Type: "int", Offset: 32, Size: 4, Align: 4, Depth: 1, Parent: 5},
			{Path: "last", Name: "last", Type: "int", Offset: 40, Size: 4, Align: 4, Parent: -1},
		},
	}
}

func TestHoles(t *testing.T) {
	s := sample()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	want := []layout.Hole{{In: -1, Offset: 1, Size: 7}, {In: 1, Offset: 12, Size: 4}}
	if got := s.Holes(); !slices.Equal(got, want) {
		t.Errorf("Holes() = %v, want %v", got, want)
	}
	if got := s.DirectHoles(-1); !slices.Equal(got, want[:1]) {
		t.Errorf("DirectHoles(-1) = %v, want %v", got, want[:1])
	}
	// A union's members overlap by design: no hole after the shorter one.
	if got := s.DirectHoles(5); len(got) != 0 {
		t.Errorf("DirectHoles(union) = %v, want none", got)
	}
	for _, tc := range []struct {
		parent int
		want   int64
	}{{-1, 4}, {1, 6}} {
		if got := s.TailPadding(tc.parent); got != tc.want {
			t.Errorf("TailPadding(%d) = %d, want %d", tc.parent, got, tc.want)
		}
	}
}

func TestBitfieldHoles(t *testing.T) {
	// struct { unsigned a:3; unsigned b:4; char c; }: the bitfields share
	// byte 0, c follows at 1; no hole.
	s := &layout.Struct{Name: "bits", Size: 4, Align: 4, Source: layout.SourceDWARF, Fields: []layout.Field{
		{Path: "a", Name: "a", Offset: 0, Size: 4, Align: 4, Parent: -1, BitOffset: 0, BitSize: 3},
		{Path: "b", Name: "b", Offset: 0, Size: 4, Align: 4, Parent: -1, BitOffset: 3, BitSize: 4},
		{Path: "c", Name: "c", Offset: 1, Size: 1, Align: 1, Parent: -1},
	}}
	if got := s.Holes(); len(got) != 0 {
		t.Errorf("Holes() = %v, want none", got)
	}
	if got := s.TailPadding(-1); got != 2 {
		t.Errorf("TailPadding = %d, want 2", got)
	}
}

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		off, size, line, phase int64
		want                   layout.Span
	}{
		{0, 4, 64, 0, layout.Span{0, 0}},
		{60, 8, 64, 0, layout.Span{0, 1}},   // straddles
		{56, 8, 64, 0, layout.Span{0, 0}},   // ends exactly on the boundary
		{120, 8, 128, 0, layout.Span{0, 0}}, // xtime_sec in tk_core@v6.1 at 128, phase 0
		{120, 8, 128, 64, layout.Span{1, 1}},
		{8, 280, 64, 0, layout.Span{0, 4}},
		{8, 0, 64, 0, layout.Span{0, 0}}, // zero size: the line of its offset
	} {
		got := layout.SpanOf(tc.off, tc.size, tc.line, tc.phase)
		if got != tc.want {
			t.Errorf("SpanOf(%d, %d, %d, %d) = %v, want %v", tc.off, tc.size, tc.line, tc.phase, got, tc.want)
		}
	}
	if s := (layout.Span{0, 1}); !s.Straddles() || s.String() != "0-1" {
		t.Errorf("Span{0,1}: Straddles %v, String %q", s.Straddles(), s.String())
	}

	s := sample()
	if got := s.LineCount(32); got != 2 {
		t.Errorf("LineCount(32) = %d, want 2", got)
	}
	// 48 bytes starting 24 bytes into a 32-byte line touch three lines.
	if got := s.LinesAt(32, 24); got != 3 {
		t.Errorf("LinesAt(32, 24) = %d, want 3", got)
	}
	if got := s.Boundaries(32, 0); !slices.Equal(got, []int64{32}) {
		t.Errorf("Boundaries(32, 0) = %v", got)
	}
	if got := s.Boundaries(32, 24); !slices.Equal(got, []int64{8, 40}) {
		t.Errorf("Boundaries(32, 24) = %v", got)
	}
}

func TestPhases(t *testing.T) {
	s := &layout.Struct{Name: "x", Size: 320, Align: 64}
	if got := s.Phases(64); !slices.Equal(got, []int64{0}) {
		t.Errorf("Phases(64) = %v, want [0]", got)
	}
	if got := s.Phases(128); !slices.Equal(got, []int64{0, 64}) {
		t.Errorf("Phases(128) = %v, want [0 64]", got)
	}
	s.Align = 8
	if got := s.Phases(64); len(got) != 8 || got[7] != 56 {
		t.Errorf("Phases(64) at align 8 = %v, want 0, 8, ..., 56", got)
	}
}

func TestParseLineSizes(t *testing.T) {
	got, err := layout.ParseLineSizes("128, 64,64,256")
	if err != nil || !slices.Equal(got, []int64{64, 128, 256}) {
		t.Errorf("ParseLineSizes = %v, %v", got, err)
	}
	for _, bad := range []string{"0", "96", "8", "8192", "", "64,x", "-64"} {
		if _, err := layout.ParseLineSizes(bad); err == nil {
			t.Errorf("ParseLineSizes(%q) succeeded", bad)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseLineSizes(%q): error has several lines: %q", bad, err)
		}
	}
}

func TestValidate(t *testing.T) {
	for name, mutate := range map[string]func(*layout.Struct){
		"outside the object":  func(s *layout.Struct) { s.Fields[8].Offset = 46 },
		"outside its parent":  func(s *layout.Struct) { s.Fields[4].Offset = 32 },
		"misaligned":          func(s *layout.Struct) { s.Source = layout.SourceGo; s.Fields[3].Offset = 20 },
		"out of order":        func(s *layout.Struct) { s.Fields[0].Offset = 44; s.Fields[0].Size = 1 },
		"parent after member": func(s *layout.Struct) { s.Fields[2].Parent = 5 },
		"align not power of 2": func(s *layout.Struct) {
			s.Align = 24
		},
	} {
		s := sample()
		mutate(s)
		if err := s.Validate(); err == nil {
			t.Errorf("%s: Validate succeeded", name)
		}
	}
}

// FuzzParseLineSizes checks that any -lines value either parses into a
// sorted set of valid line sizes or fails with one line.
func FuzzParseLineSizes(f *testing.F) {
	for _, seed := range []string{"64,128", "64", "0", "96", "32,256,4096", " 128 , 64 ", "9223372036854775807", "-1", ",,", "0x40"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sizes, err := layout.ParseLineSizes(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error has several lines: %q", err)
			}
			return
		}
		if len(sizes) == 0 || !slices.IsSorted(sizes) {
			t.Errorf("ParseLineSizes(%q) = %v", s, sizes)
		}
		for _, n := range sizes {
			if err := layout.CheckLineSize(n); err != nil {
				t.Errorf("ParseLineSizes(%q) accepted %d: %v", s, n, err)
			}
		}
	})
}
