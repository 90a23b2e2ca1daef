package access

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mglayout/mglayout/layout"
)

// Touch is the bytes [Offset, End) of an object that one access touches.
type Touch struct {
	Op     Op
	Member string
	Offset int64
	End    int64
}

// Resolve maps a path's accesses onto the bytes of s. An unknown member is
// an error that names the path, the member and the struct.
func Resolve(p *Path, s *layout.Struct) ([]Touch, error) {
	touches := make([]Touch, 0, len(p.Accesses))
	for _, a := range p.Accesses {
		off, end, err := memberBytes(s, a.Member)
		if err != nil {
			return nil, fmt.Errorf("path %s: %v", p.Name, err)
		}
		touches = append(touches, Touch{a.Op, a.Member, off, end})
	}
	return touches, nil
}

// memberBytes returns the byte range of a member path, which may index an
// array (base[1]) and name a member of the element (shards[3].n).
func memberBytes(s *layout.Struct, member string) (off, end int64, err error) {
	name, index, indexed := strings.Cut(member, "[")
	f := s.Field(name)
	if f == nil {
		return 0, 0, fmt.Errorf("no member %q in %s (see mglayout layout -expand for the member paths)", name, s.Name)
	}
	if !indexed {
		return f.Offset, f.End(), nil
	}
	index, inner, closed := strings.Cut(index, "]")
	i, err := strconv.ParseInt(index, 10, 64)
	if !closed || err != nil || f.Kind != layout.KindArray || i < 0 || i >= f.Len {
		return 0, 0, fmt.Errorf("%q is not an element of an array member of %s", member, s.Name)
	}
	elem := f.Size / f.Len
	off = f.Offset + i*elem
	if inner == "" {
		return off, off + elem, nil
	}
	inner, ok := strings.CutPrefix(inner, ".")
	if !ok || f.Elem == nil {
		return 0, 0, fmt.Errorf("%q: the elements of %s in %s have no members to name", member, name, s.Name)
	}
	ef := f.Elem.Field(inner)
	if ef == nil {
		return 0, 0, fmt.Errorf("%q: no member %q in the elements of %s in %s", member, inner, name, s.Name)
	}
	return off + ef.Offset, off + ef.End(), nil
}
