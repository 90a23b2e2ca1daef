package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestCheckAndVetPlaceAlike runs check and vet on one Go type that the
// package holds on the heap, in a package-level variable and in a slice:
// the two commands must consider the same phases, for the same reason,
// at every line size.
func TestCheckAndVetPlaceAlike(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/cv\n\ngo 1.24\n",
		"cv.go": `package cv

import "sync/atomic"

// Pair counts on two CPUs at once.
//
//mglayout:path inc_a cpus=1 add=a
//mglayout:path inc_b cpus=1 add=b
type Pair struct {
	a atomic.Int64
	b atomic.Int64
}

// The package holds one as a global and a table of them by value.
var (
	global Pair
	table  []Pair
)
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("GOFLAGS", "-mod=mod")

	code, out, stderr := mglayout("check", "-arch", "amd64", "-lines", "64,128", "-format", "json", "./")
	if code != 1 {
		t.Fatalf("check: exit %d, want 1 (false sharing): %s", code, stderr)
	}
	var check struct {
		Objects []struct {
			PhaseReasons map[string]string `json:"phase_reasons"`
			Cases        []struct{ Line, Phase int64 }
		}
	}
	if err := json.Unmarshal([]byte(out), &check); err != nil || len(check.Objects) != 1 {
		t.Fatalf("check -format json: %v, %d objects:\n%s", err, len(check.Objects), out)
	}
	checked := map[int64][]int64{}
	for _, c := range check.Objects[0].Cases {
		checked[c.Line] = append(checked[c.Line], c.Phase)
	}

	code, out, stderr = mglayout("vet", "-falsesharing.arch", "amd64", "-falsesharing.lines", "64,128", "-json", "./")
	if code != 1 {
		t.Fatalf("vet: exit %d, want 1 (a finding): %s", code, stderr)
	}
	var findings []struct {
		Holds []struct {
			Line      int64   `json:"line"`
			AllPhases []int64 `json:"all_phases"`
			Placement string  `json:"placement"`
		} `json:"holds"`
	}
	if err := json.Unmarshal([]byte(out), &findings); err != nil || len(findings) == 0 {
		t.Fatalf("vet -json: %v, %d findings:\n%s", err, len(findings), out)
	}
	seen := 0
	for _, f := range findings {
		for _, h := range f.Holds {
			seen++
			if !slices.Equal(h.AllPhases, checked[h.Line]) {
				t.Errorf("at %d B vet considers phases %v, check %v", h.Line, h.AllPhases, checked[h.Line])
			}
			if want := check.Objects[0].PhaseReasons[strconv.FormatInt(h.Line, 10)]; h.Placement != want {
				t.Errorf("at %d B vet places the type as %q, check as %q", h.Line, h.Placement, want)
			}
		}
	}
	if seen == 0 {
		t.Errorf("vet's findings hold at no line size: nothing compared")
	}
}
