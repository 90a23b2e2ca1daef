package render_test

import (
	"bytes"
	"encoding/json"
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
		{"json", render.JSON},
		{"md", render.Markdown},
	}
	all := models(t)
	for _, f := range formats {
		for _, expand := range []bool{false, true} {
			name := "kernel." + f.ext
			if expand && f.ext == "json" {
				continue // JSON always lists every member at every depth
			}
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

// TestJSONSchema checks the document against the example of DESIGN.md:
// the keys, and the figures it gives for tk_core@v6.1.
func TestJSONSchema(t *testing.T) {
	s, err := structs.Lookup("tk_core@v6.1", "amd64")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render.JSON(&buf, []*sharing.Object{{Layout: s, Placement: placement.For(s, true)}}, render.Options{Lines: []int64{64, 128}}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Structs []map[string]json.RawMessage `json:"structs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Structs) != 1 {
		t.Fatalf("got %d structs, want 1", len(doc.Structs))
	}
	got := doc.Structs[0]
	for _, key := range []string{"name", "source", "arch", "size", "align", "fields", "holes", "tail_padding", "lines"} {
		if _, ok := got[key]; !ok {
			t.Errorf("key %q missing", key)
		}
	}
	want := map[string]string{
		"name":         `"tk_core@v6.1"`,
		"source":       `"kernel"`,
		"arch":         `"amd64"`,
		"size":         `320`,
		"align":        `64`,
		"tail_padding": `32`,
		"lines":        `{"128":3,"64":5}`,
	}
	for key, w := range want {
		var compact bytes.Buffer
		if err := json.Compact(&compact, got[key]); err != nil {
			t.Fatal(err)
		}
		if compact.String() != w {
			t.Errorf("%s = %s, want %s", key, compact.String(), w)
		}
	}
	var fields []struct {
		Path   string `json:"path"`
		Type   string `json:"type"`
		Offset int64  `json:"offset"`
		Size   int64  `json:"size"`
		Align  int64  `json:"align"`
	}
	if err := json.Unmarshal(got["fields"], &fields); err != nil {
		t.Fatal(err)
	}
	wantFields := map[string][4]any{
		"seq":                             {"seqcount_raw_spinlock_t", 0, 4, 4},
		"timekeeper":                      {"struct timekeeper", 8, 280, 8},
		"timekeeper.tkr_mono.xtime_nsec":  {"u64", 40, 8, 8},
		"timekeeper.tkr_mono":             {"struct tk_read_base", 8, 56, 8},
		"timekeeper.xtime_sec":            {"u64", 120, 8, 8},
		"timekeeper.skip_second_overflow": {"u32", 280, 4, 4},
	}
	seen := 0
	for _, f := range fields {
		w, ok := wantFields[f.Path]
		if !ok {
			continue
		}
		seen++
		if f.Type != w[0] || f.Offset != int64(w[1].(int)) || f.Size != int64(w[2].(int)) || f.Align != int64(w[3].(int)) {
			t.Errorf("%s = %s %d %d %d, want %v", f.Path, f.Type, f.Offset, f.Size, f.Align, w)
		}
	}
	if seen != len(wantFields) {
		t.Errorf("found %d of the %d expected fields", seen, len(wantFields))
	}
	var holes []map[string]int64
	if err := json.Unmarshal(got["holes"], &holes); err != nil {
		t.Fatal(err)
	}
	if len(holes) == 0 || holes[0]["offset"] != 4 || holes[0]["size"] != 4 {
		t.Errorf("holes = %v, want the 4-byte hole at 4 first", holes)
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
