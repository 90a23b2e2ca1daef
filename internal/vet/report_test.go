package vet

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSARIFColumn checks that columns count UTF-16 code units, SARIF's
// default columnKind, where Go counts bytes.
func TestSARIFColumn(t *testing.T) {
	name := filepath.Join(t.TempDir(), "a.go")
	src := "package a\n\nvar s, x = \"héllo, 世界\", 1\n"
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	off := strings.Index(src, "1\n")
	lineStart := strings.LastIndex(src[:off], "\n") + 1
	p := token.Position{Filename: name, Offset: off, Line: 3, Column: off - lineStart + 1}
	loc := &sarifLocator{src: map[string][]byte{}, roots: map[string]string{}}
	// é is 2 bytes and 1 unit, 世 and 界 3 bytes and 1 unit each.
	if got, want := loc.column(p), p.Column-1-2-2; got != want {
		t.Errorf("column of byte column %d = %d, want %d", p.Column, got, want)
	}
}
