package falsesharing

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestReadme checks that the README's section on the rules is what
// mkreadme.go writes from Rules (go generate), under the section that the
// analyzer's URL names.
func TestReadme(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, []byte("\n## The go vet analyzer\n")) || !strings.HasSuffix(Analyzer.URL, "#the-go-vet-analyzer") {
		t.Errorf("README has no section %q for the analyzer's URL %s", "## The go vet analyzer", Analyzer.URL)
	}
	var stderr bytes.Buffer
	cmd := exec.Command("go", "run", "mkreadme.go", "-stdout")
	cmd.Stderr = &stderr
	section, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run mkreadme.go -stdout: %v\n%s", err, stderr.Bytes())
	}
	if !bytes.Contains(readme, section) {
		t.Errorf("the README's section on the rules is not what Rules give (run go generate ./layout/falsesharing):\n%s", section)
	}
	for _, r := range Rules {
		if !bytes.Contains(section, []byte("\n### "+r.ID+" "+r.Name+"\n")) {
			t.Errorf("the section has no heading for %s, the anchor of %s", r.ID, r.URL())
		}
	}
}
