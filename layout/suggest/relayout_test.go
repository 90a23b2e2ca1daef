package suggest

import (
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/gosrc"
	"github.com/mglayout/mglayout/structs"
)

// TestRelayoutIdentity checks that laying the members out again in their
// declared order reproduces every model and every awkward Go type of the
// compiler tests exactly: the search starts from the truth.
func TestRelayoutIdentity(t *testing.T) {
	var all []*layout.Struct
	for _, name := range structs.Names() {
		s, err := structs.Lookup(name, "amd64")
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, s)
	}
	for _, arch := range []string{"amd64", "386"} {
		res, err := gosrc.Load(gosrc.Config{Dir: "../gosrc/testdata", Archs: []string{arch}}, []string{"./awkward"})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, res.Structs...)
	}
	for _, s := range all {
		root := tree(s)
		root.relayout(s.Source == layout.SourceGo)
		got := flatten(s, root)
		if got.Size != s.Size || len(got.Fields) != len(s.Fields) {
			t.Errorf("%s (%s): size %d with %d members, want %d with %d", s.Name, s.Arch, got.Size, len(got.Fields), s.Size, len(s.Fields))
			continue
		}
		for i := range s.Fields {
			if got.Fields[i] != s.Fields[i] {
				t.Errorf("%s (%s): %+v, want %+v", s.Name, s.Arch, got.Fields[i], s.Fields[i])
			}
		}
	}
}
