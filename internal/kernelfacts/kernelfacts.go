// Package kernelfacts gives the tests the kernel facts they check
// against: kernel_truth.md (who reads and writes what, every struct
// version), tk_layout.c with its gcc output layouts_x86_64.csv, and
// pahole's output in pahole/ (BUILD.txt says how each was made, with gcc
// 12.2 and pahole 1.24 on x86_64).
//
// They are copied into testdata from the project's kernel facts
// (shared/kernel beside the repository), so that the module tests itself
// from a clone; TestCopy fails when a copy drifts from the original.
package kernelfacts

import (
	"path/filepath"
	"runtime"
)

// Dir returns the directory holding the kernel facts.
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("kernelfacts: no caller information to find testdata by")
	}
	return filepath.Join(filepath.Dir(file), "testdata")
}
