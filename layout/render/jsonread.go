package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
)

// ReadJSON reads a `layout -json` document back into layouts and their
// access paths. The parents of members are rebuilt from the order and
// byte ranges, as the document lists every aggregate before its members.
// Anything inconsistent is an error that says what and where, so a
// hand-edited or truncated file never yields a wrong layout.
func ReadJSON(r io.Reader) ([]*layout.Struct, map[*layout.Struct][]*access.Path, error) {
	var doc JSONDocument
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, fmt.Errorf("not a layout -json document: %v", err)
	}
	if dec.More() {
		return nil, nil, errors.New("not a layout -json document: trailing data after the document")
	}
	if len(doc.Structs) == 0 {
		return nil, nil, errors.New("the document holds no structs")
	}
	paths := map[*layout.Struct][]*access.Path{}
	var out []*layout.Struct
	for i, js := range doc.Structs {
		s, err := structFromJSON(js)
		if err != nil {
			return nil, nil, fmt.Errorf("structs[%d] (%s): %v", i, js.Name, err)
		}
		for _, jp := range js.Paths {
			p, err := access.Parse(jp.Spec)
			if err != nil {
				return nil, nil, fmt.Errorf("structs[%d] (%s): %v", i, js.Name, err)
			}
			p.Doc, p.Inferred = jp.Doc, jp.Inferred
			if _, err := access.Resolve(p, s); err != nil {
				return nil, nil, fmt.Errorf("structs[%d] (%s): %v", i, js.Name, err)
			}
			paths[s] = append(paths[s], p)
		}
		out = append(out, s)
	}
	return out, paths, nil
}

func structFromJSON(js JSONStruct) (*layout.Struct, error) {
	switch js.Source {
	case layout.SourceKernel, layout.SourceGo, layout.SourceDWARF:
	default:
		return nil, fmt.Errorf("source %q is not kernel, go or dwarf", js.Source)
	}
	s := &layout.Struct{Name: js.Name, Source: js.Source, Arch: js.Arch, Size: js.Size, Align: js.Align,
		PaddedTo: js.PaddedTo, Pointers: js.Pointers, Doc: js.Doc}
	// open holds the indexes of the aggregates that may still contain
	// the next member, innermost last.
	var open []int
	for i, jf := range js.Fields {
		f := layout.Field{Path: jf.Path, Type: jf.Type, Offset: jf.Offset, Size: jf.Size, Align: jf.Align, Len: jf.Len, Parent: -1}
		if jf.Size < 0 || jf.Offset < 0 || jf.Align < 0 {
			return nil, fmt.Errorf("fields[%d] (%s): negative offset, size or align", i, jf.Path)
		}
		switch jf.Kind {
		case "":
		case "struct":
			f.Kind = layout.KindStruct
		case "union":
			f.Kind = layout.KindUnion
		case "array":
			f.Kind = layout.KindArray
		default:
			return nil, fmt.Errorf("fields[%d] (%s): kind %q is not struct, union or array", i, jf.Path, jf.Kind)
		}
		if (jf.BitOffset == nil) != (jf.BitSize == nil) {
			return nil, fmt.Errorf("fields[%d] (%s): bit_offset and bit_size come together", i, jf.Path)
		}
		if jf.BitSize != nil {
			f.BitOffset, f.BitSize = *jf.BitOffset, *jf.BitSize
		}
		for len(open) > 0 && !contains(&s.Fields[open[len(open)-1]], &f) {
			open = open[:len(open)-1]
		}
		if len(open) > 0 {
			f.Parent = open[len(open)-1]
			f.Depth = s.Fields[f.Parent].Depth + 1
		}
		f.Name = lastName(f.Path, s, f.Parent)
		s.Fields = append(s.Fields, f)
		if f.Aggregate() {
			open = append(open, len(s.Fields)-1)
		}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// contains reports whether member f lies inside aggregate p.
func contains(p, f *layout.Field) bool {
	return f.Offset >= p.Offset && f.End() <= p.End() && (f.Size > 0 || f.Offset < p.End())
}

// lastName is the member's own name: its path past its parent's; empty for
// anonymous members, whose paths are written kind{...}.
func lastName(path string, s *layout.Struct, parent int) string {
	name := path
	if parent >= 0 {
		prefix := s.Fields[parent].Path + "."
		if len(path) > len(prefix) && path[:len(prefix)] == prefix {
			name = path[len(prefix):]
		}
	}
	if i := lastDot(name); i >= 0 {
		name = name[i+1:]
	}
	if len(name) > 0 && name[len(name)-1] == '}' {
		return ""
	}
	return name
}

func lastDot(s string) int {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case '}':
			depth++
		case '{':
			depth--
		case '.':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
