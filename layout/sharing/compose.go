package sharing

import (
	"fmt"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
)

// Part is one object of a scenario under the role it plays there: the
// name its members are known by, whatever type holds them (tk_core is a
// struct of its own in v6.1 and a struct tk_data from v6.13).
type Part struct {
	Role   string
	Object *Object
}

// ScenarioApart is how far apart Compose lays the objects of a scenario
// out: the largest line size (a page), so that the objects, separate
// variables whose neighbours are unknown, keep lines of their own.
const ScenarioApart = layout.MaxLineSize

// Compose lays the objects of a scenario out as one object, so that every
// analysis counts a path's lines over all the objects it touches: each
// object as a member named after its role, the first at offset 0 and each
// next at the following multiple of ScenarioApart, and the paths of the
// same name joined, their members prefixed by the role. The scenario
// starts where its first object can; the others keep their offsets
// within ScenarioApart, which is a multiple of every line size, so each
// is analysed at the first one's phase.
func Compose(name, doc string, parts []Part) (*Object, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("scenario %s has no objects", name)
	}
	first := parts[0].Object.Layout
	s := &layout.Struct{Name: name, Source: first.Source, Arch: first.Arch, Align: first.Align, Doc: doc}
	out := &Object{Layout: s, Placement: parts[0].Object.Placement}
	paths := map[string]*access.Path{}
	var base int64
	for i, p := range parts {
		l := p.Object.Layout
		if l.Arch != first.Arch {
			return nil, fmt.Errorf("scenario %s: %s is laid out for %s, %s for %s", name, l.Name, l.Arch, first.Name, first.Arch)
		}
		if i > 0 {
			base = (s.Size + ScenarioApart - 1) / ScenarioApart * ScenarioApart
		}
		top := len(s.Fields)
		s.Fields = append(s.Fields, layout.Field{Path: p.Role, Name: p.Role, Type: l.Name, Offset: base, Size: l.Size,
			Align: l.Align, Kind: layout.KindStruct, Parent: -1, Decl: l.Decl})
		for _, f := range l.Fields {
			f.Path = p.Role + "." + f.Path
			f.Offset += base
			f.Depth++
			if f.Parent < 0 {
				f.Parent = top
			} else {
				f.Parent += top + 1
			}
			s.Fields = append(s.Fields, f)
		}
		s.Size = base + l.Size
		s.Pointers = s.Pointers || l.Pointers
		for _, path := range p.Object.Paths {
			joined := paths[path.Name]
			if joined == nil {
				joined = &access.Path{Name: path.Name, CPUs: path.CPUs, Rate: path.Rate}
				paths[path.Name] = joined
				out.Paths = append(out.Paths, joined)
			} else if joined.CPUs != path.CPUs || joined.Rate != path.Rate {
				return nil, fmt.Errorf("scenario %s: path %s runs %s on %s in %s, but %s on %s before", name, path.Name,
					path.RateString(), path.CPUsString(), l.Name, joined.RateString(), joined.CPUsString())
			}
			for _, a := range path.Accesses {
				joined.Accesses = append(joined.Accesses, access.Access{Op: a.Op, Member: p.Role + "." + a.Member})
			}
			joined.Doc = strings.TrimPrefix(joined.Doc+"; "+l.Name+": "+path.Doc, "; ")
		}
	}
	return out, nil
}
