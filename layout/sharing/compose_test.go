package sharing_test

import (
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
)

func word(name string, align int64) *layout.Struct {
	return &layout.Struct{Name: name, Arch: "amd64", Size: 8, Align: align,
		Fields: []layout.Field{{Path: "n", Name: "n", Type: "u64", Size: 8, Align: 8, Parent: -1}}}
}

func path(t *testing.T, spec string) *access.Path {
	t.Helper()
	p, err := access.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCompose lays two objects out as one: the second a page on, its
// members and the accesses to them under its role, the paths of one name
// joined.
func TestCompose(t *testing.T) {
	a := &sharing.Object{Layout: word("a@v1", 64), Paths: []*access.Path{path(t, "tick cpus=1 rate=250/s write=n"), path(t, "reader read=n")}}
	b := &sharing.Object{Layout: word("b@v1", 8), Paths: []*access.Path{path(t, "tick cpus=1 rate=250/s cas=n")}}
	o, err := sharing.Compose("s@v1", "", []sharing.Part{{Role: "a", Object: a}, {Role: "b", Object: b}})
	if err != nil {
		t.Fatal(err)
	}
	s := o.Layout
	if s.Align != 64 || s.Size != sharing.ScenarioApart+8 {
		t.Errorf("aligned to %d, %d bytes; want 64 and %d", s.Align, s.Size, sharing.ScenarioApart+8)
	}
	if f := s.Field("b.n"); f == nil || f.Offset != sharing.ScenarioApart || f.Depth != 1 || s.Fields[f.Parent].Path != "b" {
		t.Errorf("b.n: %+v", f)
	}
	if len(o.Paths) != 2 || o.Paths[0].Name != "tick" || len(o.Paths[0].Accesses) != 2 ||
		o.Paths[0].Accesses[0].Member != "a.n" || o.Paths[0].Accesses[1].Member != "b.n" {
		t.Errorf("paths: %+v", o.Paths)
	}
	// The analysis counts the tick's lines over both objects.
	an, err := sharing.Analyze([]*sharing.Object{o}, []int64{64})
	if err != nil {
		t.Fatal(err)
	}
	if lines := an.Objects[0].Cases[0].Paths[0].Lines; len(lines) != 2 {
		t.Errorf("tick touches lines %v, want one in each object", lines)
	}
	// One path at two rates is an error naming both.
	c := &sharing.Object{Layout: word("c@v1", 8), Paths: []*access.Path{path(t, "tick cpus=1 rate=100/s write=n")}}
	_, err = sharing.Compose("s@v1", "", []sharing.Part{{Role: "a", Object: a}, {Role: "c", Object: c}})
	if err == nil || !strings.Contains(err.Error(), "tick runs 100/s") {
		t.Errorf("two rates: %v", err)
	}
}
