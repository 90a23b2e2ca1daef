package falsesharing

import (
	"strings"
	"testing"
)

// TestDoc checks that the analyzer's Doc is the package doc's section
// and that the section lists every rule as the rules define it.
func TestDoc(t *testing.T) {
	if !strings.HasPrefix(Analyzer.Doc, "report false sharing and fragile cache-line padding\n\n") {
		t.Errorf("Doc does not start with the summary line:\n%s", Analyzer.Doc)
	}
	for _, r := range Rules {
		line := r.ID + " " + r.Name
		i := strings.Index(Analyzer.Doc, line)
		if i < 0 || !strings.Contains(strings.Join(strings.Fields(Analyzer.Doc[i:]), " "), strings.Join(strings.Fields(line+" "+r.Summary), " ")) {
			t.Errorf("Doc does not list %s with its summary %q", line, r.Summary)
		}
	}
}

func TestExtractDocErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"package p", "no package doc comment"},
		{"// Package p does things.\npackage p", `no "# Analyzer x" heading`},
		{"// Package p.\n//\n// # Analyzer x\n//\n// does things\npackage p", `does not begin with "x: "`},
	} {
		if _, err := extractDoc(tc.src, "x"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("extractDoc(%q) = %v, want an error containing %q", tc.src, err, tc.want)
		}
	}
}
