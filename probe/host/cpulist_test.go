package host

import (
	"slices"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
)

func TestParseCPUList(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []int
		text string // FormatCPUList of want
	}{
		{"", nil, ""},
		{"0\n", []int{0}, "0"},
		{"0-3", []int{0, 1, 2, 3}, "0-3"},
		{"0,2", []int{0, 2}, "0,2"},
		{"0-1,4-5,7", []int{0, 1, 4, 5, 7}, "0-1,4-5,7"},
		{"4-5,0-1,1", []int{0, 1, 4, 5}, "0-1,4-5"},
		{"8-8", []int{8}, "8"},
	} {
		got, err := ParseCPUList(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseCPUList(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if text := FormatCPUList(tt.want); text != tt.text {
			t.Errorf("FormatCPUList(%v) = %q, want %q", tt.want, text, tt.text)
		}
	}
}

func TestParseCPUListErrors(t *testing.T) {
	for _, in := range []string{"a", "-1", "3-1", "0-", "1,,x", "0-3-5"} {
		if got, err := ParseCPUList(in); err == nil {
			t.Errorf("ParseCPUList(%q) = %v, want an error", in, got)
		}
	}
}
