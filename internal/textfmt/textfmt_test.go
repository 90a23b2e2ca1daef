package textfmt

import (
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
)

func TestRanges(t *testing.T) {
	for want, xs := range map[string][]int64{"-": nil, "0": {0}, "0-1": {0, 1}, "0-1,3": {0, 1, 3}, "0,2,4-6": {0, 2, 4, 5, 6}} {
		if got := Ranges(xs); got != want {
			t.Errorf("Ranges(%v) = %q, want %q", xs, got, want)
		}
	}
}

func TestFill(t *testing.T) {
	var b strings.Builder
	Fill(&b, "aa bb cc dd ee", "* ", "  ", 8)
	if want := "* aa bb\n  cc dd\n  ee\n"; b.String() != want {
		t.Errorf("Fill = %q, want %q", b.String(), want)
	}
	// Runes, not bytes: "é" is one column.
	b.Reset()
	Fill(&b, "éé éé", "", "", 5)
	if want := "éé éé\n"; b.String() != want {
		t.Errorf("Fill counts bytes: %q, want %q", b.String(), want)
	}
}

func TestWrap(t *testing.T) {
	got := Wrap("aa bb cc averylongword dd", 5)
	want := []string{"aa bb", "cc", "averylongword", "dd"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
}
