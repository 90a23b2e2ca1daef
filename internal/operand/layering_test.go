package operand

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportOrder keeps the layers in order: the layout JSON codec below
// the resolver (this package) and the renderers; the resolver below the
// renderers, suggest, the probe and the report. A package must not
// import, even indirectly, one above it.
func TestImportOrder(t *testing.T) {
	const mod = "github.com/mglayout/mglayout/"
	above := map[string][]string{
		"layout/layoutjson": {"internal/operand", "layout/render", "layout/suggest", "probe", "internal/report"},
		"internal/operand":  {"layout/render", "layout/suggest", "probe", "internal/report"},
	}
	for pkg, forbidden := range above {
		out, err := exec.Command("go", "list", "-deps", mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		for _, f := range forbidden {
			if slices.Contains(deps, mod+f) {
				t.Errorf("%s imports %s, which sits above it", pkg, f)
			}
		}
	}
}
