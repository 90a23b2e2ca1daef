package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe"
)

// TestVariantsScenario checks the scenario of layouts named on a command
// line: the first diffed against each other one-object variant, all
// probed together.
func TestVariantsScenario(t *testing.T) {
	sc, err := KernelScenario()
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := sc.Objects[0], sc.Objects[1], sc.Objects[2]
	got := VariantsScenario([]probe.Variant{
		{Name: "a", Objects: []*sharing.Object{a}},
		{Name: "b", Objects: []*sharing.Object{b}},
		{Name: "c+a", Objects: []*sharing.Object{c, a}},
	})
	if len(got.Objects) != 4 || len(got.Diffs) != 1 || got.Diffs[0] != [2]*sharing.Object{a, b} {
		t.Errorf("objects %d, diffs %v: want 4 objects and a diffed against b only", len(got.Objects), got.Diffs)
	}
	if len(got.Probes) != 1 || got.Probes[0].Title != "a vs b vs c+a" || len(got.Probes[0].Variants) != 3 {
		t.Errorf("probes %+v: want one of the three variants", got.Probes)
	}
}

// TestWriteFiles checks that the four files are written whole, and that
// no temporary file is left.
func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Open(filepath.Join("testdata", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(dir, r); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "report.html report.json report.md report.txt" {
		t.Errorf("files %v, want the four", names)
	}
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil || !strings.Contains(string(data), `"schema": "`+Schema+`"`) {
		t.Errorf("report.json: %v %s", err, data)
	}
}
