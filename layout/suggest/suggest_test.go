package suggest_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/layout/suggest"
	"github.com/mglayout/mglayout/structs"
)

var lines = []int64{64, 128}

func model(t *testing.T, name string) *sharing.Object {
	t.Helper()
	s, err := structs.Lookup(name, "amd64")
	if err != nil {
		t.Fatal(err)
	}
	paths, err := structs.Paths(name, "amd64")
	if err != nil {
		t.Fatal(err)
	}
	return &sharing.Object{Layout: s, Paths: paths}
}

func analyze(t *testing.T, o *sharing.Object) *sharing.ObjectAnalysis {
	t.Helper()
	a, err := sharing.Analyze([]*sharing.Object{o}, lines)
	if err != nil {
		t.Fatal(err)
	}
	return &a.Objects[0]
}

// linesOf returns, per case "line/phase", the lines each path touches.
func linesOf(oa *sharing.ObjectAnalysis) map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, c := range oa.Cases {
		for _, f := range c.Paths {
			if out[f.Path.Name] == nil {
				out[f.Path.Name] = map[string]int{}
			}
			out[f.Path.Name][caseKey(c)] = len(f.Lines)
		}
	}
	return out
}

func caseKey(c sharing.Case) string { return fmt.Sprintf("%d/%d", c.Line, c.Phase) }

// TestBeatsV613 is the acceptance test of the search: from the v6.1
// timekeeper and the v6.1 access paths alone, it must find a layout whose
// readers touch no more lines, at 64 and 128 bytes and every phase, than
// the hand-made v6.13 reorder (6860d28ccb23) gives them.
func TestBeatsV613(t *testing.T) {
	v61 := model(t, "tk_core@v6.1")
	r, err := suggest.Suggest(v61, suggest.Options{Lines: lines})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Reordered, "timekeeper") {
		t.Fatalf("timekeeper not reordered: %v (frozen: %v)", r.Reordered, r.Frozen)
	}
	if err := r.Suggested.Validate(); err != nil {
		t.Fatal(err)
	}
	got := linesOf(analyze(t, &sharing.Object{Layout: r.Suggested, Paths: v61.Paths}))
	want := linesOf(analyze(t, model(t, "tk_data@v6.13")))
	readers := []string{"ktime_get", "ktime_get_real_ts64", "ktime_get_coarse_real_ts64", "ktime_get_raw_ts64", "ktime_get_update_offsets_now"}
	for _, p := range readers {
		if len(want[p]) != 3 {
			t.Fatalf("v6.13 %s: %d cases, want 64/0, 128/0, 128/64", p, len(want[p]))
		}
		for c, n := range want[p] {
			if got[p][c] > n {
				t.Errorf("%s at %s: suggestion touches %d lines, v6.13 %d", p, c, got[p][c], n)
			}
		}
	}
	if r.CostAfter >= r.CostBefore {
		t.Errorf("cost %g → %g, want lower", r.CostBefore, r.CostAfter)
	}
	// The members shared with other members of the same type stay whole.
	for _, m := range []string{"timekeeper.tkr_mono", "timekeeper.tkr_raw"} {
		if _, ok := r.Frozen[m]; !ok {
			t.Errorf("%s should be left as declared (its type is used twice): frozen = %v", m, r.Frozen)
		}
	}
	// The object keeps its size and every member its size.
	if r.Suggested.Size != 320 {
		t.Errorf("suggested size %d, want 320", r.Suggested.Size)
	}
}

// goStruct builds a Go-like layout: a hot atomic counter beside three
// read-mostly members, a blank pad and a last field, as scalar members.
func goStruct() *layout.Struct {
	f := func(name string, off, size int64) layout.Field {
		return layout.Field{Path: name, Name: name, Type: "int64", Offset: off, Size: size, Align: 8, Parent: -1}
	}
	return &layout.Struct{Name: "p.T", Source: layout.SourceGo, Arch: "amd64", Size: 48, Align: 8, Decl: "T",
		Fields: []layout.Field{f("hits", 0, 8), f("limit", 8, 8), f("name", 16, 16), f("_", 32, 8), f("last", 40, 8)}}
}

// TestPaddingSeparatesFalseSharers checks that a hot writer beside
// read-mostly members gets padding that separates them at every phase,
// and that nothing crosses the deliberate blank member.
func TestPaddingSeparatesFalseSharers(t *testing.T) {
	s := goStruct()
	paths := []*access.Path{
		{Name: "hits", CPUs: access.AllCPUs, Rate: access.Hot, Accesses: []access.Access{{Op: access.Add, Member: "hits"}}},
		{Name: "readers", CPUs: access.AllCPUs, Rate: access.Hot, Accesses: []access.Access{{Op: access.Read, Member: "limit"}, {Op: access.Read, Member: "name"}}},
	}
	r, err := suggest.Suggest(&sharing.Object{Layout: s, Paths: paths, Placement: placement.Policy{placement.Heap}}, suggest.Options{Lines: lines})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Padding) != 1 {
		t.Fatalf("padding %v, want one pad", r.Padding)
	}
	a, err := sharing.Analyze([]*sharing.Object{r.Object.Relaid(r.Suggested)}, lines)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range a.Objects[0].Cases {
		if c.FalseWeight() > 0 {
			t.Errorf("false sharing left at %d B phase %d: %v", c.Line, c.Phase, c.FalsePairs())
		}
	}
	// "last" stays after the blank member it was declared after.
	order := []string{}
	for _, i := range r.Suggested.Members(-1) {
		order = append(order, r.Suggested.Fields[i].Name)
	}
	if idx := slices.Index(order, "last"); idx != len(order)-1 {
		t.Errorf("order %v: last should stay after the blank field it was declared after", order)
	}
}

func TestHostLayoutFrozen(t *testing.T) {
	s := goStruct()
	s.Fields = append([]layout.Field{{Path: "_", Name: "_", Type: "structs.HostLayout", Parent: -1}}, s.Fields...)
	paths := []*access.Path{{Name: "w", CPUs: access.AllCPUs, Rate: access.Hot, Accesses: []access.Access{{Op: access.Write, Member: "limit"}}}}
	r, err := suggest.Suggest(&sharing.Object{Layout: s, Paths: paths}, suggest.Options{Lines: lines})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Frozen[""]; !ok || len(r.Reordered) != 0 {
		t.Errorf("HostLayout struct: reordered %v, frozen %v", r.Reordered, r.Frozen)
	}
}

func TestNoPaths(t *testing.T) {
	_, err := suggest.Suggest(&sharing.Object{Layout: goStruct()}, suggest.Options{Lines: lines})
	if err == nil || !strings.Contains(err.Error(), "no access paths") {
		t.Errorf("err = %v, want one saying there are no access paths", err)
	}
}
