package pages

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mglayout/mglayout/internal/golden"
	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/probe"
)

// TestTextWidth checks that the text report of a real run, the one
// recorded on a 2-core VM in testdata, keeps to 80 columns (it goes into
// mails to mailing lists), and compares it with its golden file.
func TestTextWidth(t *testing.T) {
	f, err := os.Open("../testdata/report.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := report.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Text(&b, r); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(b.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > width {
			t.Errorf("line %d has %d columns: %q", i+1, n, line)
		}
	}
	if !strings.Contains(b.String(), "Verdicts") || !strings.Contains(b.String(), "Interference sweep") {
		t.Errorf("sections missing:\n%s", b.String())
	}
	golden.Check(t, "testdata/report.txt", []byte(b.String()))
}

func TestFit(t *testing.T) {
	long := "  " + strings.Repeat("word ", 40)
	got := fit(long + "\nshort\n")
	for _, line := range strings.Split(got, "\n") {
		if utf8.RuneCountInString(line) > width {
			t.Errorf("line too long: %q", line)
		}
	}
	if strings.Count(got, "word") != 40 || !strings.HasSuffix(got, "short\n") {
		t.Errorf("fit lost text: %q", got)
	}
}

// TestSweepVerdictEverywhere checks that a sweep that found no distance
// reads the same in the text, the Markdown and the HTML, and that none of
// them prints a distance it did not measure.
func TestSweepVerdictEverywhere(t *testing.T) {
	for _, in := range []probe.Interference{{Kind: probe.NoneFound}, {Kind: probe.Everywhere}, {Kind: probe.Found, Distance: 64}} {
		r := syntheticReport(t)
		r.Sweep.Kind, r.Sweep.Distance, r.Sweep.Verdict = in.Kind, in.Distance, in.Verdict(r.Sweep.Rounds, 256)
		var text, md strings.Builder
		if err := Text(&text, r); err != nil {
			t.Fatal(err)
		}
		if err := Markdown(&md, r); err != nil {
			t.Fatal(err)
		}
		html := string(renderHTML(t, r))
		flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
		for name, out := range map[string]string{"text": flat(text.String()), "md": flat(md.String()), "html": flat(html)} {
			if !strings.Contains(out, flat(r.Sweep.Verdict)) {
				t.Errorf("%s: %s sweep: the verdict %q is missing", name, in.Kind, r.Sweep.Verdict)
			}
			if in.Kind != probe.Found && (strings.Contains(out, "distance: 0 bytes") || strings.Contains(out, "**0 bytes**") || strings.Contains(out, "-1 bytes")) {
				t.Errorf("%s: %s sweep prints a distance it did not measure", name, in.Kind)
			}
		}
	}
}
