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

// memberBytes returns the byte range of a member path, which may end in
// an array index: base[1].
func memberBytes(s *layout.Struct, member string) (off, end int64, err error) {
	name, index, indexed := strings.Cut(member, "[")
	f := s.Field(name)
	if f == nil {
		return 0, 0, fmt.Errorf("no member %q in %s (see mglayout layout -expand for the member paths)", name, s.Name)
	}
	if !indexed {
		return f.Offset, f.End(), nil
	}
	i, err := strconv.ParseInt(strings.TrimSuffix(index, "]"), 10, 64)
	if err != nil || !strings.HasSuffix(index, "]") || f.Kind != layout.KindArray || i < 0 || i >= f.Len {
		return 0, 0, fmt.Errorf("%q is not an element of an array member of %s", member, s.Name)
	}
	elem := f.Size / f.Len
	return f.Offset + i*elem, f.Offset + (i+1)*elem, nil
}
