package layout_test

import (
	"testing"

	"github.com/mglayout/mglayout/layout"
)

// bits is gcc's layout of
//
//	struct bits {
//		char c;                 // 0
//		unsigned int a : 3;     // unit 0, bits 8-10
//		unsigned int b : 20;    // unit 0, bits 11-30; 1 bit left
//		int s : 5;              // unit 4, bits 0-4; 27 bits left
//		u64 big : 40;           // unit 8, bits 0-39
//		unsigned short h : 4;   // unit 12, bits 8-11; 4 bits left
//		char tail;              // 14, then 1 byte of padding
//	};
//
// for which pahole prints "sum members: 2", "sum bitfield members: 72
// bits, bit holes: 3, sum bit holes: 32 bits", "padding: 1".
func bits() *layout.Struct {
	return &layout.Struct{Name: "bits", Source: layout.SourceDWARF, Size: 16, Align: 8, Fields: []layout.Field{
		{Path: "c", Name: "c", Offset: 0, Size: 1, Align: 1, Parent: -1},
		{Path: "a", Name: "a", Offset: 0, Size: 4, Align: 4, Parent: -1, BitOffset: 8, BitSize: 3},
		{Path: "b", Name: "b", Offset: 0, Size: 4, Align: 4, Parent: -1, BitOffset: 11, BitSize: 20},
		{Path: "s", Name: "s", Offset: 4, Size: 4, Align: 4, Parent: -1, BitOffset: 0, BitSize: 5},
		{Path: "big", Name: "big", Offset: 8, Size: 8, Align: 8, Parent: -1, BitOffset: 0, BitSize: 40},
		{Path: "h", Name: "h", Offset: 12, Size: 2, Align: 2, Parent: -1, BitOffset: 8, BitSize: 4},
		{Path: "tail", Name: "tail", Offset: 14, Size: 1, Align: 1, Parent: -1},
	}}
}

func TestSummaryBitfields(t *testing.T) {
	s := bits()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	want := layout.Summary{Size: 16, Members: 7, Bytes: 2, Bits: 72, BitHoles: 3, BitSum: 32, Padding: 1}
	if got := s.Summary(-1); got != want {
		t.Errorf("Summary = %+v\nwant      %+v", got, want)
	}
	if h := s.Holes(); len(h) != 0 {
		t.Errorf("Holes = %v, want none: the gaps are bits of storage units", h)
	}
	wantGaps := []layout.Gap{{After: 2, Offset: 3, Bits: 1}, {After: 3, Offset: 8, Bits: 27}, {After: 5, Offset: 14, Bits: 4}}
	got := s.Gaps(-1)
	if len(got) != len(wantGaps) {
		t.Fatalf("Gaps = %+v, want %+v", got, wantGaps)
	}
	for i := range got {
		if got[i].After != wantGaps[i].After || got[i].Bits != wantGaps[i].Bits || got[i].Bytes != 0 {
			t.Errorf("gap %d = %+v, want %+v", i, got[i], wantGaps[i])
		}
	}
}

// TestSummaryForced is pahole's struct with a member forced to a line:
//
//	struct forced { char c; int x __attribute__((aligned(64))); char d; long e; };
//
// "sum members: 14, holes: 2, sum holes: 66", "padding: 48", "forced
// alignments: 1, forced holes: 1, sum forced holes: 63".
func TestSummaryForced(t *testing.T) {
	s := &layout.Struct{Name: "forced", Source: layout.SourceDWARF, Size: 128, Align: 64, Fields: []layout.Field{
		{Path: "c", Name: "c", Offset: 0, Size: 1, Align: 1, Parent: -1},
		{Path: "x", Name: "x", Offset: 64, Size: 4, Align: 64, Parent: -1, ForcedAlign: true},
		{Path: "d", Name: "d", Offset: 68, Size: 1, Align: 1, Parent: -1},
		{Path: "e", Name: "e", Offset: 72, Size: 8, Align: 8, Parent: -1},
	}}
	want := layout.Summary{Size: 128, Members: 4, Bytes: 14, Holes: 2, HoleSum: 66, Padding: 48, Forced: 1, ForcedHoles: 1, ForcedSum: 63}
	if got := s.Summary(-1); got != want {
		t.Errorf("Summary = %+v\nwant      %+v", got, want)
	}
}

// TestSummaryBitPadding: struct { u32 n; u32 f1:1; u32 f2:2; } ends in 29
// unused bits of f2's unit, which pahole counts as bit padding, not
// padding.
func TestSummaryBitPadding(t *testing.T) {
	s := &layout.Struct{Name: "tail", Source: layout.SourceDWARF, Size: 8, Align: 4, Fields: []layout.Field{
		{Path: "n", Name: "n", Offset: 0, Size: 4, Align: 4, Parent: -1},
		{Path: "f1", Name: "f1", Offset: 4, Size: 4, Align: 4, Parent: -1, BitSize: 1},
		{Path: "f2", Name: "f2", Offset: 4, Size: 4, Align: 4, Parent: -1, BitOffset: 1, BitSize: 2},
	}}
	got := s.Summary(-1)
	if got.Padding != 0 || got.BitPadding != 29 || got.BitHoles != 0 {
		t.Errorf("Summary = %+v, want padding 0, bit padding 29, no bit holes", got)
	}
}

// TestSummaryPaddings: pahole counts the padding of members declared
// "struct T", not of those whose type is a typedef of one.
func TestSummaryPaddings(t *testing.T) {
	s := &layout.Struct{Name: "outer", Source: layout.SourceDWARF, Size: 32, Align: 8, Fields: []layout.Field{
		{Path: "p", Name: "p", Offset: 0, Size: 16, Align: 8, Kind: layout.KindStruct, Parent: -1, ViaTypedef: true},
		{Path: "p.a", Name: "a", Offset: 0, Size: 8, Align: 8, Depth: 1, Parent: 0},
		{Path: "p.b", Name: "b", Offset: 8, Size: 1, Align: 1, Depth: 1, Parent: 0},
		{Path: "q", Name: "q", Offset: 16, Size: 16, Align: 8, Kind: layout.KindStruct, Parent: -1},
		{Path: "q.a", Name: "a", Offset: 16, Size: 8, Align: 8, Depth: 1, Parent: 3},
		{Path: "q.b", Name: "b", Offset: 24, Size: 1, Align: 1, Depth: 1, Parent: 3},
	}}
	if got := s.Summary(-1); got.Paddings != 1 || got.PaddingSum != 7 {
		t.Errorf("Summary = %+v, want paddings 1, sum 7 (q only)", got)
	}
}
