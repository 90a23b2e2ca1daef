package main

import (
	"os"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

// TestReadmeRules checks that the README documents every rule as the
// analyzer does, under the heading its findings link to: the rules are
// data in layout/falsesharing, and the README is written from them by hand.
func TestReadmeRules(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	if !strings.Contains(readme, "\n## The go vet analyzer\n") || !strings.HasSuffix(falsesharing.Analyzer.URL, "#the-go-vet-analyzer") {
		t.Errorf("README has no section %q for the analyzer's URL %s", "## The go vet analyzer", falsesharing.Analyzer.URL)
	}
	for _, r := range falsesharing.Rules {
		heading := "\n### " + r.ID + " " + r.Name + "\n"
		i := strings.Index(readme, heading)
		if i < 0 {
			t.Errorf("README has no heading %q (the anchor of %s)", strings.TrimSpace(heading), r.URL())
			continue
		}
		// The rule's section runs to the next heading.
		section := readme[i+len(heading):]
		if j := strings.Index(section, "\n#"); j >= 0 {
			section = section[:j]
		}
		for what, text := range map[string]string{"summary": r.Summary, "doc": r.Doc} {
			if !strings.Contains(normalize(section), normalize(text)) {
				t.Errorf("README section %s lacks the rule's %s:\n%s", r.ID, what, text)
			}
		}
		for what, code := range map[string]string{"bad": r.Bad, "good": r.Good} {
			if !strings.Contains(section, "```go\n"+code+"\n```") {
				t.Errorf("README section %s lacks the rule's %s example as a Go code block:\n%s", r.ID, what, code)
			}
		}
	}
}

// normalize collapses runs of white space, which wrapping changes.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }
