package main

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportFrom renders the report recorded on a 2-core VM (so that
// nothing depends on this host's timing) and checks, in every format,
// one conclusion line per change, first, with the figures it needs; and
// the rows whose rounds could not have seen a change of half the rate
// said to be too noisy, not given a figure.
func TestReportFrom(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if got := run([]string{"report", "-from", "../../internal/report/testdata/report.json", "-o", dir}, &stdout, &stderr); got != 0 {
		t.Fatalf("report -from: exit status %d; stderr:\n%s", got, stderr.String())
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	changes := []string{
		"tk_core@v6.1 → tk_core@v6.1+guohui: static worse at 64 B and 128 B; measured",
		"tk_core@v6.1 → tk_data@v6.13: static better at 64 B and 128 B; measured",
		"tk_data@v6.13 → tk_data@v6.15: static same at 64 B and 128 B; measured",
		"tk_data@v6.15 → tk_data@v6.17: static same at 64 B and 128 B; measured",
		"tk_data@v6.17 → tk_data@v7.1: static worse at 64 B and 128 B; measured",
	}
	for _, name := range []string{"report.txt", "report.md", "report.html", "report.json"} {
		text := strings.Join(strings.Fields(html.UnescapeString(read(name))), " ")
		for _, c := range changes {
			if !strings.Contains(text, c) {
				t.Errorf("%s has no conclusion %q", name, c)
			}
		}
		if name == "report.json" {
			continue
		}
		// First: before the host and the verdicts.
		if i, j := strings.Index(text, changes[0]), strings.Index(text, "Verdicts"); i < 0 || j < i {
			t.Errorf("%s: the conclusions do not come first", name)
		}
		for _, want := range []string{
			"-3.5% [-5.0%, +3.2%], n=10, p=1.000 (Holm, 6): not confirmed; could not have seen less than ±5.7%; predicted no measurable change, which it agrees with",
			// A change where none is predicted is flagged.
			"+11.7% [+9.2%, +19.6%], n=10, p=0.002 (Holm, 6): against the prediction; predicted no change, which it contradicts",
			"too noisy to tell",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
	if txt := read("report.txt"); !strings.Contains(txt, "too noisy to tell (±146%)") {
		t.Errorf("report.txt: the reader's rate beside the unthrottled tick (±146%%) is given a figure")
	}
	var bad bytes.Buffer
	if got := run([]string{"report", "-from", "../../internal/report/testdata/report.json", "tk_core@v6.1"}, &stdout, &bad); got != 2 || !strings.Contains(bad.String(), "renders a report already made; drop tk_core@v6.1") {
		t.Errorf("report -from with a variant: exit %d, %q", got, bad.String())
	}
}
