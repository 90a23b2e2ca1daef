package costmodel

import "testing"

func TestRelationOf(t *testing.T) {
	for _, tc := range []struct {
		a, b, line int64
		want       Relation
	}{
		{0, 8, 64, SameLine},
		{56, 63, 64, SameLine},
		{56, 64, 64, AdjacentLine}, // lines 0 and 1: one 128-byte pair
		{64, 127, 64, SameLine},
		{120, 128, 64, Apart}, // lines 1 and 2: two pairs
		{0, 4096, 64, Apart},
		{0, 120, 128, SameLine},
		{0, 128, 128, AdjacentLine},
	} {
		if got := RelationOf(tc.a, tc.b, tc.line); got != tc.want {
			t.Errorf("RelationOf(%d, %d, %d) = %q, want %q", tc.a, tc.b, tc.line, got, tc.want)
		}
	}
	// The calibration's own words must be at the relation they measure.
	for _, r := range Relations {
		if got := RelationOf(0, distance(r, 64), 64); got != r {
			t.Errorf("the calibration measures %q at distance %d, which is %q", r, distance(r, 64), got)
		}
	}
}

func TestRelationOfSpans(t *testing.T) {
	for _, tc := range []struct {
		a, aEnd, b, bEnd int64
		want             Relation
	}{
		{112, 136, 176, 184, SameLine}, // a 24-byte lock's tail on the reader's line
		{0, 8, 64, 72, AdjacentLine},
		{64, 72, 0, 8, AdjacentLine},
		{0, 64, 64, 128, AdjacentLine},
		{0, 8, 128, 136, Apart},
		{0, 200, 100, 108, SameLine}, // one inside the other
	} {
		if got := RelationOfSpans(tc.a, tc.aEnd, tc.b, tc.bEnd, 64); got != tc.want {
			t.Errorf("RelationOfSpans([%d,%d), [%d,%d), 64) = %q, want %q", tc.a, tc.aEnd, tc.b, tc.bEnd, got, tc.want)
		}
	}
}
