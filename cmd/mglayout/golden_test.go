package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/mglayout/mglayout/internal/golden"
)

// TestGolden runs command lines on the built-in kernel models and compares
// their output with testdata/golden, rewritten by go test -update and
// reviewed in the diff like code.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		args   string
	}{
		{"layout_tk_core_v6.1.txt", 0, "layout -lines 64,128 tk_core@v6.1"},
		{"check_kernel.txt", 0, "check -lines 64,128"},
		{"check_kernel.json", 0, "check -json -lines 64,128"},
		{"check_kernel.md", 0, "check -format md -lines 64,128"},
		{"check_floor.txt", 0, "check -lines 64,128 tk_data@v6.13 mg_floor@v6.13"},
		{"diff_guohui.txt", 1, "diff -lines 64,128 tk_core@v6.1 tk_core@v6.1+guohui"},
		{"diff_guohui.json", 1, "diff -json -lines 64,128 tk_core@v6.1 tk_core@v6.1+guohui"},
		{"diff_guohui.md", 1, "diff -format md -lines 64,128 tk_core@v6.1 tk_core@v6.1+guohui"},
		{"diff_v6.13.txt", 1, "diff -lines 64,128 tk_core@v6.1 tk_data@v6.13"},
		{"diff_v6.13.json", 1, "diff -json -lines 64,128 tk_core@v6.1 tk_data@v6.13"},
		{"diff_v6.13.md", 1, "diff -format md -lines 64,128 tk_core@v6.1 tk_data@v6.13"},
		// Two reports recorded on one 2-core VM, each with native 64-byte
		// and emulated 128-byte probes.
		{"compare_recorded.txt", 0, "compare ../../probe/report/testdata/report.json ../../probe/report/testdata/report2.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := run(strings.Fields(tc.args), &stdout, &stderr); got != tc.status {
				t.Fatalf("mglayout %s: exit status %d, want %d; stderr:\n%s", tc.args, got, tc.status, stderr.String())
			}
			if stderr.Len() > 0 {
				t.Errorf("mglayout %s wrote to stderr:\n%s", tc.args, stderr.String())
			}
			golden(t, filepath.Join("testdata", "golden", tc.name), stdout.Bytes())
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	goldenfile.Check(t, path, got, *update)
}
