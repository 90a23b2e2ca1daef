package layoutjson_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/mglayout/mglayout/internal/golden"
	"github.com/mglayout/mglayout/layout/layoutjson"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/structs"
)

// TestGolden writes every kernel model as a document at 64 and 128
// bytes: every member at every depth, so there is no expanded form.
func TestGolden(t *testing.T) {
	var all []*sharing.Object
	for _, name := range structs.Names() {
		s, err := structs.Lookup(name, "amd64")
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, &sharing.Object{Layout: s, Placement: placement.For(s, true)})
	}
	var buf bytes.Buffer
	if err := layoutjson.Write(&buf, all, []int64{64, 128}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "kernel.json"), buf.Bytes())
}

// TestJSONSchema checks the document against the example of DESIGN.md:
// the keys, and the figures it gives for tk_core@v6.1.
func TestJSONSchema(t *testing.T) {
	s, err := structs.Lookup("tk_core@v6.1", "amd64")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := layoutjson.Write(&buf, []*sharing.Object{{Layout: s, Placement: placement.For(s, true)}}, []int64{64, 128}); err != nil {
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
	var holes []struct {
		Offset, Size int64
		Nested       bool
	}
	if err := json.Unmarshal(got["holes"], &holes); err != nil {
		t.Fatal(err)
	}
	if len(holes) == 0 || holes[0].Offset != 4 || holes[0].Size != 4 || holes[0].Nested {
		t.Errorf("holes = %v, want the 4-byte hole at 4 first", holes)
	}
}
