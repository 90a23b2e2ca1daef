package falsesharing_test

import (
	"fmt"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

// TestQuietOnRepository runs the analyzer over this repository's own
// packages and their tests, as `go vet -vettool=mglayout ./...` does in
// CI, for the host's GOARCH and for amd64 and arm64 together, and expects
// no finding and no failure.
func TestQuietOnRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and type-checks the whole module and its dependencies")
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: "../..", Tests: true}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	// A package that does not build fails go vet too; say which, and
	// check the others all the same.
	var built []*packages.Package
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Errorf("%s does not build: %v", p.ID, p.Errors[0])
			continue
		}
		built = append(built, p)
	}
	for _, arch := range []string{"", "amd64,arm64"} {
		t.Run("arch="+arch, func(t *testing.T) {
			setFlags(t, arch, "")
			g, err := checker.Analyze([]*analysis.Analyzer{falsesharing.Analyzer}, built, nil)
			if err != nil {
				t.Fatal(err)
			}
			// A test variant of a package repeats its files: report each
			// finding once.
			var found []string
			for _, act := range g.Roots {
				if act.Err != nil {
					t.Errorf("%s: %v", act.Package.ID, act.Err)
				}
				for _, d := range act.Diagnostics {
					found = append(found, fmt.Sprintf("%s: %s", act.Package.Fset.Position(d.Pos), d.Message))
				}
			}
			slices.Sort(found)
			for _, f := range slices.Compact(found) {
				t.Error(f)
			}
		})
	}
}
