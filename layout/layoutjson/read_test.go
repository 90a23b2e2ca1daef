package layoutjson_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/gosrc"
	"github.com/mglayout/mglayout/layout/layoutjson"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/structs"
)

// roundTrip writes the objects with Write, reads them back with Read
// and checks that nothing was lost: layouts, paths and placements.
func roundTrip(t *testing.T, in ...*sharing.Object) {
	t.Helper()
	var buf bytes.Buffer
	if err := layoutjson.Write(&buf, in, []int64{64, 128}); err != nil {
		t.Fatalf("Write: %v", err)
	}
	out, err := layoutjson.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("Read of what Write wrote: %v", err)
	}
	if len(out) != len(in) {
		t.Fatalf("Read: %d structs, want %d", len(out), len(in))
	}
	for i := range in {
		compareStructs(t, in[i].Layout, out[i].Layout)
		comparePaths(t, in[i].Layout.Name, in[i].Paths, out[i].Paths)
		if !slices.Equal(out[i].Placement, in[i].Placement) {
			t.Errorf("%s: placement read back as %v, want %v", in[i].Layout.Name, out[i].Placement, in[i].Placement)
		}
		for _, line := range []int64{64, 128} {
			want, _ := in[i].Phases(line)
			if got, _ := out[i].Phases(line); !slices.Equal(got, want) {
				t.Errorf("%s: phases at %d B read back as %v, want %v", in[i].Layout.Name, line, got, want)
			}
		}
	}
}

func compareStructs(t *testing.T, want, got *layout.Struct) {
	t.Helper()
	if got.Name != want.Name || got.Source != want.Source || got.Arch != want.Arch || got.Size != want.Size ||
		got.Align != want.Align || got.PaddedTo != want.PaddedTo || got.Pointers != want.Pointers || got.Doc != want.Doc {
		t.Errorf("%s: read back as {Name %q Source %q Arch %q Size %d Align %d PaddedTo %d Pointers %v Doc %q}, want {%q %q %q %d %d %d %v %q}",
			want.Name, got.Name, got.Source, got.Arch, got.Size, got.Align, got.PaddedTo, got.Pointers, got.Doc,
			want.Name, want.Source, want.Arch, want.Size, want.Align, want.PaddedTo, want.Pointers, want.Doc)
	}
	if len(got.Fields) != len(want.Fields) {
		t.Errorf("%s: %d fields read back, want %d", want.Name, len(got.Fields), len(want.Fields))
		return
	}
	for i := range want.Fields {
		w, g := &want.Fields[i], &got.Fields[i]
		type cmp struct {
			what string
			w, g any
		}
		for _, c := range []cmp{
			{"Path", w.Path, g.Path}, {"Name", w.Name, g.Name}, {"Type", w.Type, g.Type},
			{"Offset", w.Offset, g.Offset}, {"Size", w.Size, g.Size}, {"Align", w.Align, g.Align},
			{"Kind", w.Kind, g.Kind}, {"Depth", w.Depth, g.Depth}, {"Parent", w.Parent, g.Parent},
			{"Len", w.Len, g.Len}, {"BitOffset", w.BitOffset, g.BitOffset}, {"BitSize", w.BitSize, g.BitSize},
			{"ForcedAlign", w.ForcedAlign, g.ForcedAlign}, {"ViaTypedef", w.ViaTypedef, g.ViaTypedef},
		} {
			if c.w != c.g {
				t.Errorf("%s: fields[%d] (%s): %s read back as %v, want %v", want.Name, i, w.Path, c.what, c.g, c.w)
			}
		}
	}
}

func comparePaths(t *testing.T, where string, want, got []*access.Path) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d paths read back, want %d", where, len(got), len(want))
		return
	}
	for i := range want {
		w, g := want[i], got[i]
		if g.Name != w.Name || g.CPUs != w.CPUs || g.Rate != w.Rate || g.Doc != w.Doc || g.Inferred != w.Inferred ||
			!slices.Equal(g.Accesses, w.Accesses) {
			t.Errorf("%s: path %d read back as %+v, want %+v", where, i, *g, *w)
		}
	}
}

// TestReadModels round-trips every built-in kernel model with its
// paths, all in one document and one by one.
func TestReadModels(t *testing.T) {
	var all []*sharing.Object
	bitfields, withPaths := 0, 0
	for _, name := range structs.Names() {
		s, err := structs.Lookup(name, "amd64")
		if err != nil {
			t.Fatal(err)
		}
		ps, err := structs.Paths(name, "amd64")
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) > 0 {
			withPaths++
		}
		for _, f := range s.Fields {
			if f.BitSize > 0 {
				bitfields++
			}
		}
		o := &sharing.Object{Layout: s, Paths: ps, Placement: placement.For(s, true)}
		all = append(all, o)
		t.Run(name, func(t *testing.T) { roundTrip(t, o) })
	}
	if len(all) == 0 || withPaths == 0 {
		t.Fatalf("%d models, %d with paths", len(all), withPaths)
	}
	roundTrip(t, all...)
	t.Logf("%d models, %d with paths, %d bitfields", len(all), withPaths, bitfields)
}

// TestReadGo round-trips the awkward Go types of the gosrc tests, for
// a 64-bit and a 32-bit GOARCH, with their declared or inferred paths.
func TestReadGo(t *testing.T) {
	res, err := gosrc.Load(gosrc.Config{Dir: "../gosrc/testdata", Archs: []string{"amd64", "386"}}, []string{"./awkward"})
	if err != nil {
		t.Fatalf("Load ./awkward: %v", err)
	}
	if len(res.Structs) < 40 {
		t.Fatalf("Load ./awkward: %d structs, want at least 40", len(res.Structs))
	}
	for _, s := range res.Structs {
		t.Run(s.Arch+"/"+s.Name, func(t *testing.T) {
			roundTrip(t, &sharing.Object{Layout: s, Paths: res.Paths[s], Placement: res.Placement[s]})
			// As //mglayout:align declares it: at any multiple of its
			// alignment, not where the allocator would put it.
			roundTrip(t, &sharing.Object{Layout: s, Paths: res.Paths[s], Placement: placement.For(s, true)})
		})
	}
}

// tkFast is a small valid document: tk_fast@v6.1 as layout -json writes
// it, with its paths.
const tkFast = `{"structs": [{
  "name": "tk_fast@v6.1", "source": "kernel", "arch": "amd64", "size": 120, "align": 64,
  "fields": [
    {"path": "seq", "type": "seqcount_latch_t", "offset": 0, "size": 4, "align": 4, "kind": "struct"},
    {"path": "seq.seqcount", "type": "seqcount_t", "offset": 0, "size": 4, "align": 4, "kind": "struct"},
    {"path": "seq.seqcount.sequence", "type": "unsigned", "offset": 0, "size": 4, "align": 4},
    {"path": "base", "type": "struct tk_read_base[2]", "offset": 8, "size": 112, "align": 8, "kind": "array", "len": 2}
  ],
  "holes": [{"offset": 4, "size": 4}], "tail_padding": 0,
  "lines": {"128": 1, "64": 2}, "phases": {"128": [0, 64], "64": [0]},
  "pointers": true, "doc": "tk_fast_mono",
  "paths": [
    {"name": "ktime_get_mono_fast_ns", "cpus": "all", "rate": "hot", "spec": "ktime_get_mono_fast_ns cpus=all rate=hot seqread=seq read=base[0]", "doc": "reader"},
    {"name": "tick", "cpus": "1", "rate": "250/s", "spec": "tick cpus=1 rate=250/s seqwrite=seq write=base[0],base[1]", "inferred": true}
  ]
}]}
`

func TestReadSmall(t *testing.T) {
	out, err := layoutjson.Read(strings.NewReader(tkFast))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 {
		t.Fatalf("%d structs, want 1", len(out))
	}
	want := &layout.Struct{Name: "tk_fast@v6.1", Source: layout.SourceKernel, Arch: "amd64", Size: 120, Align: 64,
		Pointers: true, Doc: "tk_fast_mono", Fields: []layout.Field{
			{Path: "seq", Name: "seq", Type: "seqcount_latch_t", Offset: 0, Size: 4, Align: 4, Kind: layout.KindStruct, Parent: -1},
			{Path: "seq.seqcount", Name: "seqcount", Type: "seqcount_t", Offset: 0, Size: 4, Align: 4, Kind: layout.KindStruct, Depth: 1, Parent: 0},
			{Path: "seq.seqcount.sequence", Name: "sequence", Type: "unsigned", Offset: 0, Size: 4, Align: 4, Depth: 2, Parent: 1},
			{Path: "base", Name: "base", Type: "struct tk_read_base[2]", Offset: 8, Size: 112, Align: 8, Kind: layout.KindArray, Len: 2, Parent: -1},
		}}
	compareStructs(t, want, out[0].Layout)
	comparePaths(t, "tk_fast@v6.1", []*access.Path{
		{Name: "ktime_get_mono_fast_ns", CPUs: access.AllCPUs, Rate: access.Hot, Doc: "reader",
			Accesses: []access.Access{{Op: access.SeqRead, Member: "seq"}, {Op: access.Read, Member: "base[0]"}}},
		{Name: "tick", CPUs: 1, Rate: 250, Inferred: true,
			Accesses: []access.Access{{Op: access.SeqWrite, Member: "seq"}, {Op: access.Write, Member: "base[0]"}, {Op: access.Write, Member: "base[1]"}}},
	}, out[0].Paths)
}

// TestReadPaholeFlags round-trips the member flags that pahole's
// summary counts, as the DWARF loader sets them: a typedef'd struct member
// and a member aligned by an attribute.
func TestReadPaholeFlags(t *testing.T) {
	s := &layout.Struct{Name: "forced", Source: layout.SourceDWARF, Arch: "amd64", Size: 128, Align: 64, Fields: []layout.Field{
		{Path: "seq", Name: "seq", Type: "seqcount_t", Offset: 0, Size: 4, Align: 4, Kind: layout.KindStruct, Parent: -1, ViaTypedef: true},
		{Path: "seq.sequence", Name: "sequence", Type: "unsigned int", Offset: 0, Size: 4, Align: 4, Depth: 1, Parent: 0},
		{Path: "hot", Name: "hot", Type: "long unsigned int", Offset: 64, Size: 8, Align: 64, Parent: -1, ForcedAlign: true},
	}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, &sharing.Object{Layout: s})
}

// TestReadErrors breaks the small document in one place at a time:
// each must be an error of one line that says what is wrong.
func TestReadErrors(t *testing.T) {
	const seqField = `{"path": "seq.seqcount.sequence", "type": "unsigned", "offset": 0, "size": 4, "align": 4}`
	edit := func(old, new string) string {
		if !strings.Contains(tkFast, old) {
			t.Fatalf("the document lacks %q", old)
		}
		return strings.Replace(tkFast, old, new, 1)
	}
	tests := []struct {
		name, doc string
		want      []string // substrings of the error
	}{
		{"empty input", "", []string{"not a layout -json document"}},
		{"truncated", tkFast[:len(tkFast)/2], []string{"not a layout -json document"}},
		{"truncated at the end", strings.TrimSpace(tkFast)[:len(strings.TrimSpace(tkFast))-1], []string{"not a layout -json document"}},
		{"trailing garbage", tkFast + "garbage", []string{"trailing"}},
		{"trailing document", tkFast + tkFast, []string{"trailing"}},
		{"trailing brace", tkFast + "}", []string{"trailing"}},
		{"trailing bracket", tkFast + "]", []string{"trailing"}},
		{"not an object", `[1, 2]`, []string{"not a layout -json document"}},
		{"no structs", `{"structs": []}`, []string{"no structs"}},
		{"unknown key", edit(`"tail_padding": 0`, `"tail_padding": 0, "colour": "red"`), []string{"colour"}},
		{"unknown field key", edit(`"kind": "array"`, `"kind": "array", "count": 2`), []string{"count"}},
		{"wrong source", edit(`"source": "kernel"`, `"source": "elf"`), []string{"structs[0]", "tk_fast@v6.1", `"elf"`}},
		{"kind blob", edit(`"kind": "array"`, `"kind": "blob"`), []string{"structs[0]", "base", `"blob"`}},
		{"negative size", edit(`"offset": 8, "size": 112`, `"offset": 8, "size": -112`), []string{"structs[0]", "base", "negative"}},
		{"negative offset", edit(`"offset": 8, "size": 112`, `"offset": -8, "size": 112`), []string{"structs[0]", "base", "negative"}},
		{"bit_offset without bit_size", edit(seqField, strings.Replace(seqField, `"align": 4`, `"align": 4, "bit_offset": 3`, 1)),
			[]string{"structs[0]", "seq.seqcount.sequence", "bit_offset"}},
		{"bit_size without bit_offset", edit(seqField, strings.Replace(seqField, `"align": 4`, `"align": 4, "bit_size": 3`, 1)),
			[]string{"structs[0]", "seq.seqcount.sequence", "bit_size"}},
		{"negative bit_size", edit(seqField, strings.Replace(seqField, `"align": 4`, `"align": 4, "bit_offset": 0, "bit_size": -1`, 1)),
			[]string{"structs[0]", "seq.seqcount.sequence", "bit_size"}},
		// base[1] would be bytes [45,82): elements of 37⅓ bytes.
		{"array len not dividing its size", edit(`"len": 2`, `"len": 3`), []string{"structs[0]", "base"}},
		{"negative padded_to", edit(`"pointers": true`, `"pointers": true, "padded_to": -64`), []string{"structs[0]", "padded_to"}},
		{"member outside the object", edit(`"offset": 8, "size": 112`, `"offset": 8, "size": 120`), []string{"structs[0]", "base", "outside"}},
		// seq is [0,4): a member of it cannot be 8 bytes long.
		{"member outside its parent", edit(seqField, strings.Replace(seqField, `"size": 4, "align": 4`, `"size": 8, "align": 4`, 1)),
			[]string{"structs[0]", "seq.seqcount.sequence"}},
		// other.x lies in seq.seqcount's bytes but its path says it is no
		// member of it.
		{"member path not under its parent", edit(`"path": "seq.seqcount.sequence"`, `"path": "other.x"`), []string{"structs[0]", "other.x"}},
		{"misaligned member", edit(`"offset": 8, "size": 112`, `"offset": 12, "size": 104`), []string{"structs[0]", "base"}},
		{"zero align", edit(`"size": 120, "align": 64`, `"size": 120, "align": 0`), []string{"structs[0]", "tk_fast@v6.1"}},
		{"align not a power of two", edit(`"size": 120, "align": 64`, `"size": 120, "align": 48`), []string{"structs[0]", "tk_fast@v6.1"}},
		{"path naming a missing member", edit(`read=base[0]"`, `read=base[0],nosuch"`), []string{"structs[0]", "ktime_get_mono_fast_ns", "nosuch"}},
		{"path naming a missing element", edit(`write=base[0],base[1]"`, `write=base[0],base[2]"`), []string{"structs[0]", "tick", "base[2]"}},
		{"bad path spec", edit(`"spec": "tick cpus=1`, `"spec": "tick cpus=0`), []string{"structs[0]", "tick", "cpus=0"}},
		{"empty path spec", edit(`"spec": "tick cpus=1 rate=250/s seqwrite=seq write=base[0],base[1]"`, `"spec": ""`), []string{"structs[0]", "empty path"}},
		{"wrong type", edit(`"size": 120,`, `"size": "120",`), []string{"not a layout -json document"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := layoutjson.Read(strings.NewReader(tt.doc))
			if err == nil {
				var desc []string
				for _, o := range out {
					for _, f := range o.Layout.Fields {
						desc = append(desc, fmt.Sprintf("%s [%d,%d) parent %d depth %d", f.Path, f.Offset, f.End(), f.Parent, f.Depth))
					}
				}
				t.Fatalf("Read succeeded, want an error; read %s", strings.Join(desc, "; "))
			}
			msg := err.Error()
			if strings.ContainsAny(msg, "\n\r") {
				t.Errorf("error is not one line: %q", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not mention %s", msg, w)
				}
			}
		})
	}
}

func FuzzRead(f *testing.F) {
	f.Add(tkFast)
	f.Add(tkFast[:len(tkFast)/3])
	f.Add(tkFast + "}")
	f.Add(`{"structs": []}`)
	f.Add(`{"structs": [{"name": "x", "source": "go", "arch": "amd64", "size": 0, "align": 1}]}`)
	f.Add(strings.Replace(tkFast, `"kind": "array"`, `"kind": "blob"`, 1))
	f.Add(strings.Replace(tkFast, `"offset": 8, "size": 112`, `"offset": 8, "size": -112`, 1))
	f.Add(strings.Replace(tkFast, `"len": 2`, `"len": 0`, 1))
	f.Add(strings.Replace(tkFast, `"align": 4}`, `"align": 4, "bit_offset": 3, "bit_size": 5}`, 1))
	f.Add(`{"structs": [{"name": "u", "source": "dwarf", "arch": "arm64", "size": 16, "align": 8, "fields": [
		{"path": "u", "type": "union", "offset": 0, "size": 16, "align": 8, "kind": "union"},
		{"path": "u.a", "type": "struct a", "offset": 0, "size": 16, "align": 8, "kind": "struct"},
		{"path": "u.a.x", "type": "u64", "offset": 0, "size": 8, "align": 8},
		{"path": "u.a.y", "type": "u64", "offset": 8, "size": 8, "align": 8},
		{"path": "u.b", "type": "u64", "offset": 0, "size": 8, "align": 8}],
		"paths": [{"name": "p", "cpus": "all", "rate": "hot", "spec": "p write=u.b read=u.a.y"}]}]}`)
	f.Fuzz(func(t *testing.T, doc string) {
		out, err := layoutjson.Read(strings.NewReader(doc))
		if err != nil {
			if out != nil {
				t.Errorf("Read returned layouts and an error")
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("error is not one line: %q", err)
			}
			return
		}
		if len(out) == 0 {
			t.Fatalf("Read succeeded with no layouts")
		}
		for _, o := range out {
			if err := o.Layout.Validate(); err != nil {
				t.Errorf("Read returned a layout that does not validate: %v", err)
			}
			if err := o.Placement.Check(o.Layout); err != nil {
				t.Errorf("Read returned a placement that does not apply: %v", err)
			}
			for _, p := range o.Paths {
				if _, err := access.Resolve(p, o.Layout); err != nil {
					t.Errorf("Read returned a path that does not resolve: %v", err)
				}
			}
		}
	})
}
