package vet

import "testing"

// TestMeasuredRank checks the SARIF rank of a measured finding: the share
// of the reader's time the fix saves, 0 when not confirmed.
func TestMeasuredRank(t *testing.T) {
	for _, tc := range []struct {
		m    Measured
		want float64
	}{
		{Measured{Result: "measured", Delta: 1}, 50},
		{Measured{Result: "measured", Delta: 2}, 67},
		{Measured{Result: "measured", Delta: 0.1}, 9},
		{Measured{Result: "not confirmed", Delta: 2}, 0},
		{Measured{Result: "measured", Delta: -0.5}, 0},
	} {
		if got := tc.m.Rank(); got != tc.want {
			t.Errorf("%+v: rank %v, want %v", tc.m, got, tc.want)
		}
	}
}
