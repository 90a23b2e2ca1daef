package render_test

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/mglayout/mglayout/internal/golden"
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/structs"
)

func models(t *testing.T) []*sharing.Object {
	t.Helper()
	var out []*sharing.Object
	for _, name := range structs.Names() {
		s, err := structs.Lookup(name, "amd64")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, &sharing.Object{Layout: s, Placement: placement.For(s, true)})
	}
	return out
}

// TestGolden renders every kernel model in every format at 64 and 128
// bytes, flat and expanded.
func TestGolden(t *testing.T) {
	formats := []struct {
		ext    string
		render func(io.Writer, []*sharing.Object, render.Options) error
	}{
		{"txt", render.Text},
		{"md", render.Markdown},
	}
	all := models(t)
	for _, f := range formats {
		for _, expand := range []bool{false, true} {
			name := "kernel." + f.ext
			if expand {
				name = "kernel_expanded." + f.ext
			}
			t.Run(name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := f.render(&buf, all, render.Options{Lines: []int64{64, 128}, Expand: expand}); err != nil {
					t.Fatal(err)
				}
				goldenfile.Check(t, filepath.Join("testdata", name), buf.Bytes())
			})
		}
	}
}

// TestMarkdownBitfieldsAndForcedAlign checks the rows of members that only
// DWARF gives: a bitfield at pahole's byte:bit offset with its width, and a
// member whose alignment an attribute raised.
func TestMarkdownBitfieldsAndForcedAlign(t *testing.T) {
	s := &layout.Struct{Name: "bits", Source: layout.SourceDWARF, Arch: "amd64", Size: 128, Align: 64, Fields: []layout.Field{
		{Path: "c", Name: "c", Type: "char", Offset: 0, Size: 1, Align: 1, Parent: -1},
		{Path: "a", Name: "a", Type: "unsigned int", Offset: 0, Size: 4, Align: 4, Parent: -1, BitOffset: 8, BitSize: 3},
		{Path: "x", Name: "x", Type: "int", Offset: 64, Size: 4, Align: 64, Parent: -1, ForcedAlign: true},
	}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := render.Markdown(&b, []*sharing.Object{{Layout: s}}, render.Options{Lines: []int64{64, 128}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| 0:8 | 4 | `a:3` | `unsigned int` | 0 | 0 |",
		"| 64 | 4 | `x` | `int` *aligned(64)* | 1 | 0 |",
		"60 bytes of tail padding",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, b.String())
		}
	}
}
