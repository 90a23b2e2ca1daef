package operand

import (
	"slices"
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
)

// TestModels checks that a built-in model loads as one object with its
// paths and the placement its declared alignment gives (0 and 64 at 128
// bytes for tk_core, which is 64-byte aligned), and that no argument
// means every model.
func TestModels(t *testing.T) {
	var c Config
	o, err := c.One("tk_core@v6.1")
	if err != nil {
		t.Fatal(err)
	}
	if o.Layout.Name != "tk_core@v6.1" || len(o.Paths) == 0 {
		t.Errorf("One(tk_core@v6.1) = %s with %d paths", o.Layout.Name, len(o.Paths))
	}
	if phases, _ := o.Phases(128); !slices.Equal(phases, []int64{0, 64}) {
		t.Errorf("phases at 128 B = %v, want [0 64]", phases)
	}
	set, err := c.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Objects) < 5 {
		t.Errorf("Load() = %d layouts, want every model", len(set.Objects))
	}
}

// TestErrors checks that operands that name nothing say what they may be.
func TestErrors(t *testing.T) {
	var c Config
	for arg, want := range map[string]string{
		"nosuchthing":  "is not a model (NAME@VERSION), a Go type (import/path.T) or a layout -json file",
		"tk_core@v9.9": `unknown model "tk_core@v9.9"`,
	} {
		if _, err := c.One(arg); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("One(%q) = %v, want an error containing %q", arg, err, want)
		}
	}
	c.Types = "T"
	if _, err := c.Load([]string{"tk_core@v6.1"}); err == nil || !strings.Contains(err.Error(), "-type selects Go types") {
		t.Errorf("Load with -type and a model = %v, want the -type error", err)
	}
}
