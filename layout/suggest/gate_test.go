package suggest_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/layout/suggest"
	"github.com/mglayout/mglayout/structs"
)

// TestSuggestionPassesGate is the property that suggest and diff agree:
// no suggestion, for any built-in model or scenario or for generated Go
// structs, is a layout that diff's gate calls a regression of the
// declared one.
func TestSuggestionPassesGate(t *testing.T) {
	var objects []*sharing.Object
	for _, name := range append(structs.Names(), structs.ScenarioNames()...) {
		o, err := structs.Object(name, "amd64")
		if err != nil {
			t.Fatal(err)
		}
		if len(o.Paths) > 0 {
			objects = append(objects, o)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		objects = append(objects, randomGoObject(r, i))
	}
	suggested := 0
	for _, o := range objects {
		res, err := suggest.Suggest(o, suggest.Options{Lines: lines})
		if err != nil {
			t.Fatalf("%s: %v", o.Layout.Name, err)
		}
		if res.Suggested == o.Layout {
			continue
		}
		suggested++
		before, err := sharing.Analyze([]*sharing.Object{o}, lines)
		if err != nil {
			t.Fatal(err)
		}
		after, err := sharing.Analyze([]*sharing.Object{o.Relaid(res.Suggested)}, lines)
		if err != nil {
			t.Fatal(err)
		}
		d, err := diff.Compare(&before.Objects[0], &after.Objects[0], lines)
		if err != nil {
			t.Fatal(err)
		}
		if d.Regressed() {
			t.Errorf("%s: the suggestion is a regression at %v by diff's gate: %+v", o.Layout.Name, d.WorseAt(), d.Judgement.Changes)
		}
	}
	// The property says nothing if the search never suggests.
	if suggested < 20 {
		t.Errorf("only %d of %d objects got a suggestion", suggested, len(objects))
	}
	t.Logf("%d of %d objects got a suggestion, none a regression", suggested, len(objects))
}

// randomGoObject is a Go struct of 3 to 9 scalar members of sizes 1 to
// 16, naturally aligned, placed by the allocator, with a hot writer of
// one or two members and readers of others.
func randomGoObject(r *rand.Rand, i int) *sharing.Object {
	s := &layout.Struct{Name: fmt.Sprintf("p.T%d", i), Source: layout.SourceGo, Arch: "amd64", Decl: fmt.Sprintf("T%d", i)}
	var off int64
	n := 3 + r.IntN(7)
	for k := range n {
		size := []int64{1, 2, 4, 8, 8, 8, 16}[r.IntN(7)]
		align := min(size, 8)
		off = (off + align - 1) / align * align
		name := fmt.Sprintf("m%d", k)
		s.Fields = append(s.Fields, layout.Field{Path: name, Name: name, Type: fmt.Sprintf("[%d]byte", size), Offset: off, Size: size, Align: align, Parent: -1})
		off += size
		s.Align = max(s.Align, align)
	}
	s.Size = (off + s.Align - 1) / s.Align * s.Align
	perm := r.Perm(n)
	member := func(j int) string { return s.Fields[perm[j]].Path }
	paths := []*access.Path{{Name: "writer", CPUs: access.AllCPUs, Rate: access.Hot, Accesses: []access.Access{{Op: access.Add, Member: member(0)}}}}
	if r.IntN(2) == 0 {
		paths[0].Accesses = append(paths[0].Accesses, access.Access{Op: access.Write, Member: member(1)})
	}
	var reads []access.Access
	for j := 2; j < n; j++ {
		if r.IntN(2) == 0 {
			reads = append(reads, access.Access{Op: access.Read, Member: member(j)})
		}
	}
	if len(reads) == 0 {
		reads = append(reads, access.Access{Op: access.Read, Member: member(n - 1)})
	}
	rate := float64(access.Hot)
	if r.IntN(3) == 0 {
		rate = 250
	}
	paths = append(paths, &access.Path{Name: "readers", CPUs: access.AllCPUs, Rate: rate, Accesses: reads})
	return &sharing.Object{Layout: s, Paths: paths, Placement: placement.For(s, false)}
}
