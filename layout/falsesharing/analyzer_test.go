package falsesharing_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/layout/falsesharing"
)

// TestShapes checks the first shapes written for the analyzer. Their
// expectations are for 64-byte lines, so the GOARCH is set rather than
// left to the host's: on an arm64 host the default would check 128-byte
// lines and the test would fail for no fault of the analyzer.
func TestShapes(t *testing.T) {
	setFlags(t, "amd64", "")
	analysistest.Run(t, analysistest.TestData(), falsesharing.Analyzer, "shapes")
}

// setFlags sets -falsesharing.arch and -falsesharing.lines for the rest
// of the test and restores the defaults (the GOARCH being built, no
// extra line sizes) afterwards. The flags are package variables of the
// analyzer, so tests that set them must not run in parallel.
func setFlags(t *testing.T, arch, lines string) {
	t.Helper()
	if err := falsesharing.Analyzer.Flags.Set("arch", arch); err != nil {
		t.Fatal(err)
	}
	if err := falsesharing.Analyzer.Flags.Set("lines", lines); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		falsesharing.Analyzer.Flags.Set("arch", "")
		falsesharing.Analyzer.Flags.Set("lines", "")
	})
}

// packagesUnder lists the test packages in testdata/src/dir, as import
// paths, so that a package added there is checked without being listed.
func packagesUnder(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(analysistest.TestData(), "src", dir))
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, e := range entries {
		if e.IsDir() {
			pkgs = append(pkgs, dir+"/"+e.Name())
		}
	}
	if len(pkgs) == 0 {
		t.Fatalf("no packages in testdata/src/%s", dir)
	}
	slices.Sort(pkgs)
	return pkgs
}

// runEach runs the analyzer on each package in a subtest of its own,
// with the given flags, checking its `// want` comments.
func runEach(t *testing.T, arch, lines string, pkgs []string) {
	t.Helper()
	setFlags(t, arch, lines)
	for _, pkg := range pkgs {
		t.Run(strings.ReplaceAll(pkg, "/", "_"), func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), falsesharing.Analyzer, pkg)
		})
	}
}
