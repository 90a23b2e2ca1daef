package pages

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/internal/report"
)

// TestWriteFiles checks that the four files are written whole, and that
// no temporary file is left.
func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Open(filepath.Join("..", "testdata", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.Read(f)
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
	if err != nil || !strings.Contains(string(data), `"schema": "`+report.Schema+`"`) {
		t.Errorf("report.json: %v %s", err, data)
	}
}
