// Package kernelfacts finds the kernel facts the tests check against
// (kernel_truth.md, tk_layout.c, layouts_x86_64.csv, pahole/). They live
// outside the module, in shared/kernel beside the clone (../shared/kernel
// from the repository root).
package kernelfacts

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir walks up from the test's package directory until a shared/kernel
// holding tk_layout.c and layouts_x86_64.csv turns up, and returns it.
// CI always has it; elsewhere the test is skipped rather than failed,
// naming where the facts were looked for.
func Dir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for dir := wd; ; {
		cand := filepath.Join(dir, "shared", "kernel")
		if exists(filepath.Join(cand, "tk_layout.c")) && exists(filepath.Join(cand, "layouts_x86_64.csv")) {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	t.Skipf("kernel facts not found: expected shared/kernel beside the repository (../shared/kernel from its root) or in a directory above %s", wd)
	return ""
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
