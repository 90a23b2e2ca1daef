package probe

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/structs"
)

// member is a leaf of a synthetic layout.
type member struct {
	name       string
	off, size  int64
	kind       layout.Kind
	len        int64 // arrays
	parent     int   // index of the enclosing aggregate, -1 at depth 0
	typeString string
}

// synth builds a layout from its members, which must be in the order
// layout.Struct keeps them (aggregates before their members).
func synth(t testing.TB, name string, align, size int64, ms []member) *layout.Struct {
	t.Helper()
	s := &layout.Struct{Name: name, Source: layout.SourceGo, Arch: "amd64", Size: size, Align: align}
	for _, m := range ms {
		depth := 0
		path := m.name
		if m.parent >= 0 {
			p := s.Fields[m.parent]
			depth = p.Depth + 1
			path = p.Path + "." + m.name
		}
		al := m.size
		if m.kind != layout.KindScalar {
			al = 8
			if m.kind == layout.KindArray {
				al = m.size / m.len
			}
		}
		al = min(al, 8)
		typ := m.typeString
		if typ == "" {
			typ = fmt.Sprintf("u%d", 8*m.size)
		}
		s.Fields = append(s.Fields, layout.Field{Path: path, Name: m.name, Type: typ, Offset: m.off, Size: m.size,
			Align: al, Kind: m.kind, Depth: depth, Parent: m.parent, Len: m.len})
	}
	if err := s.Validate(); err != nil {
		t.Fatalf("synthetic layout: %v", err)
	}
	return s
}

func scalar(name string, off, size int64) member {
	return member{name: name, off: off, size: size, kind: layout.KindScalar, parent: -1}
}

// kernel returns a built-in model with its paths, as mglayout loads it.
func kernel(t testing.TB, name string) *sharing.Object {
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

func mustParse(t testing.TB, specs ...string) []*access.Path {
	t.Helper()
	var out []*access.Path
	for _, spec := range specs {
		p, err := access.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// usable returns the CPUs of the affinity mask, skipping the test when
// fewer than two are usable.
func usable(t testing.TB) []int {
	t.Helper()
	cpus, err := affinity()
	if err != nil {
		t.Skipf("the affinity mask cannot be read here (%v), so the probe cannot run", err)
	}
	if len(cpus) < 2 {
		t.Skipf("the probe needs at least 2 CPUs in the affinity mask; this process has %v", cpus)
	}
	return cpus
}

// randomLayout makes a layout of 4- and 8-byte scalars and small arrays at
// their natural alignment with random gaps, a 4-byte sequence counter
// first.
func randomLayout(t testing.TB, r *rand.Rand, name string) *layout.Struct {
	ms := []member{scalar("seq", 0, 4)}
	off := int64(4)
	n := 3 + r.IntN(40)
	for i := range n {
		var m member
		switch r.IntN(5) {
		case 0, 1:
			m = scalar(fmt.Sprintf("w%d", i), 0, 4)
		case 2, 3:
			m = scalar(fmt.Sprintf("q%d", i), 0, 8)
		default:
			l := int64(2 + r.IntN(3))
			m = member{name: fmt.Sprintf("a%d", i), size: 4 * l, kind: layout.KindArray, len: l, parent: -1, typeString: fmt.Sprintf("u32[%d]", l)}
		}
		al := min(m.size, 8)
		if m.kind == layout.KindArray {
			al = 4
		}
		off += 4 * int64(r.IntN(4)) // a gap
		off = roundUp(off, al)
		m.off = off
		off += m.size
		ms = append(ms, m)
	}
	align := []int64{8, 8, 64}[r.IntN(3)]
	return synth(t, name, align, roundUp(off, align), ms)
}

// randomPaths makes paths over the leaves of s: reads, writes, adds and
// CASes, some in a seqlock section on seq.
func randomPaths(r *rand.Rand, s *layout.Struct, n int) []*access.Path {
	var leaves []string
	for _, f := range s.Fields[1:] {
		leaves = append(leaves, f.Path)
	}
	var out []*access.Path
	for i := range n {
		p := &access.Path{Name: fmt.Sprintf("p%d", i), CPUs: access.AllCPUs, Rate: access.Hot}
		k := 1 + r.IntN(6)
		section := r.IntN(3) // 0: none, 1: seqread, 2: seqwrite
		for j := range k {
			if section != 0 && j == k/2 {
				op := access.SeqRead
				if section == 2 {
					op = access.SeqWrite
				}
				p.Accesses = append(p.Accesses, access.Access{Op: op, Member: "seq"})
			}
			op := []access.Op{access.Read, access.Read, access.Write, access.Add, access.CAS}[r.IntN(5)]
			p.Accesses = append(p.Accesses, access.Access{Op: op, Member: leaves[r.IntN(len(leaves))]})
		}
		out = append(out, p)
	}
	return out
}
