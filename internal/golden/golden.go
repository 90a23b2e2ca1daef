// Package golden compares test output with golden files, which a test
// rewrites when run with its -update flag; the changes are then reviewed
// in the diff like code.
package golden

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Check compares got with the file at path, or writes it under -update. A difference is reported at its first differing line.
func Check(t *testing.T, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run go test -update and review the diff):\n%s", path, FirstDiff(string(want), string(got)))
	}
}

// FirstDiff describes the first line at which two texts differ.
func FirstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant: %s\ngot:  %s", i+1, w, g)
		}
	}
	return ""
}
