package falsesharing_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

// fixPackages hold one rule's shapes each (wide: FS1-FS3 with arm64's
// lines), with comments on the members and inside the structs, and a
// .golden file per source file: the source once every suggested fix is
// applied.
var fixPackages = []struct{ pkg, arch string }{
	{"fix/fs1", "amd64"},       // pad each element to 64 bytes
	{"fix/fs2", "amd64"},       // insert a pad before the later member
	{"fix/fs3", "amd64"},       // grow the pad to a line at every phase
	{"fix/fs4", "amd64,arm64"}, // grow the pad, pad the elements, for 128
	{"fix/fs5", "amd64"},       // (L - s%L) % L
	{"fix/fs6", "amd64"},       // shorten the trailing pad
	{"fix/wide", "amd64,arm64"},
}

// TestSuggestedFixes applies the fixes and compares the result with the
// .golden files, which keep every comment of the source. It also checks
// that every finding comes with a fix, and that there are fixes for
// every rule.
func TestSuggestedFixes(t *testing.T) {
	fixed := map[string]bool{}
	for _, fp := range fixPackages {
		t.Run(strings.ReplaceAll(fp.pkg, "/", "_"), func(t *testing.T) {
			setFlags(t, fp.arch, "")
			for _, r := range analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), falsesharing.Analyzer, fp.pkg) {
				for _, d := range r.Diagnostics {
					if len(d.SuggestedFixes) == 0 {
						t.Errorf("%s: %s: no suggested fix", r.Pass.Fset.Position(d.Pos), d.Message)
						continue
					}
					fixed[d.Category] = true
				}
			}
		})
	}
	for _, r := range falsesharing.Rules {
		if !fixed[r.ID] {
			t.Errorf("no test of a suggested fix for %s %s", r.ID, r.Name)
		}
	}
}

// wantComment matches a `// want` expectation, alone or after another
// comment on the line.
var wantComment = regexp.MustCompile(`\s*// want .*`)

// TestFixesKeepComments checks, independently of how the golden files
// were written, that every comment of a fix package's source is still in
// its golden file: a fix may add lines but must drop no comment.
func TestFixesKeepComments(t *testing.T) {
	for _, fp := range fixPackages {
		dir := filepath.Join(analysistest.TestData(), "src", fp.pkg)
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		if len(files) == 0 {
			t.Fatalf("no source in %s", dir)
		}
		for _, name := range files {
			golden, err := os.ReadFile(name + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range f.Comments {
				for _, c := range g.List {
					text := wantComment.ReplaceAllString(c.Text, "")
					if text != "" && !strings.Contains(string(golden), text) {
						t.Errorf("%s.golden lost the comment %q", filepath.Base(name), text)
					}
				}
			}
		}
	}
}

// TestFixedIsQuiet runs the analyzer on the fixed sources: each golden
// file, without its `// want` comments, becomes a package of its own in
// a fresh GOPATH, checked with the flags that produced the fixes. Applying
// the fixes must leave nothing to report.
func TestFixedIsQuiet(t *testing.T) {
	for _, fp := range fixPackages {
		t.Run(strings.ReplaceAll(fp.pkg, "/", "_"), func(t *testing.T) {
			setFlags(t, fp.arch, "")
			gopath := t.TempDir()
			pkg := "fixed/" + filepath.Base(fp.pkg)
			out := filepath.Join(gopath, "src", pkg)
			if err := os.MkdirAll(out, 0o777); err != nil {
				t.Fatal(err)
			}
			goldens, _ := filepath.Glob(filepath.Join(analysistest.TestData(), "src", fp.pkg, "*.go.golden"))
			if len(goldens) == 0 {
				t.Fatalf("no golden files in %s", fp.pkg)
			}
			for _, g := range goldens {
				src, err := os.ReadFile(g)
				if err != nil {
					t.Fatal(err)
				}
				src = wantComment.ReplaceAll(src, nil)
				if err := os.WriteFile(filepath.Join(out, strings.TrimSuffix(filepath.Base(g), ".golden")), src, 0o666); err != nil {
					t.Fatal(err)
				}
			}
			analysistest.Run(t, gopath, falsesharing.Analyzer, pkg)
		})
	}
}
