package layoutjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Read reads a `layout -json` document back into objects: layouts,
// their access paths and their placements. The parents of members are rebuilt from their paths, as
// the document lists every aggregate before its members.
// Anything inconsistent is an error that says what and where, so a
// hand-edited or truncated file never yields a wrong layout.
func Read(r io.Reader) ([]*sharing.Object, error) {
	var doc Document
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not a layout -json document: %v", err)
	}
	if rest, _ := io.ReadAll(io.MultiReader(dec.Buffered(), r)); len(bytes.TrimSpace(rest)) > 0 {
		return nil, errors.New("not a layout -json document: trailing data after the document")
	}
	if len(doc.Structs) == 0 {
		return nil, errors.New("the document holds no structs")
	}
	var out []*sharing.Object
	for i, js := range doc.Structs {
		o, err := js.Object()
		if err != nil {
			return nil, fmt.Errorf("structs[%d] (%s): %v", i, js.Name, err)
		}
		out = append(out, o)
	}
	return out, nil
}

// Object rebuilds the object a document's struct describes: its layout,
// placement and access paths, each checked as Read checks them.
func (js Struct) Object() (*sharing.Object, error) {
	s, err := structOf(js)
	if err != nil {
		return nil, err
	}
	if err := js.Placement.Check(s); err != nil {
		return nil, err
	}
	o := &sharing.Object{Layout: s, Placement: js.Placement}
	for _, jp := range js.Paths {
		p, err := access.Parse(jp.Spec)
		if err != nil {
			return nil, err
		}
		p.Doc, p.Inferred = jp.Doc, jp.Inferred
		if _, err := access.Resolve(p, s); err != nil {
			return nil, err
		}
		o.Paths = append(o.Paths, p)
	}
	return o, nil
}

func structOf(js Struct) (*layout.Struct, error) {
	switch js.Source {
	case layout.SourceKernel, layout.SourceGo, layout.SourceDWARF:
	default:
		return nil, fmt.Errorf("source %q is not kernel, go or dwarf", js.Source)
	}
	if js.PaddedTo < 0 || js.PaddedTo&(js.PaddedTo-1) != 0 {
		return nil, fmt.Errorf("padded_to %d is not a power of two", js.PaddedTo)
	}
	s := &layout.Struct{Name: js.Name, Source: js.Source, Arch: js.Arch, Size: js.Size, Align: js.Align,
		PaddedTo: js.PaddedTo, Pointers: js.Pointers, Doc: js.Doc}
	if js.Address != nil {
		s.Placed, s.Address = true, uint64(*js.Address)
		for _, n := range js.Neighbours {
			s.Neighbours = append(s.Neighbours, layout.Neighbour(n))
		}
	}
	fields, err := fieldsOf(js.Fields, s)
	if err != nil {
		return nil, err
	}
	s.Fields = fields
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// fieldsOf rebuilds members, and the layouts of array elements,
// for the struct s.
func fieldsOf(jfs []Field, s *layout.Struct) ([]layout.Field, error) {
	var fields []layout.Field
	// open holds the indexes of the aggregates that may still contain
	// the next member, innermost last.
	var open []int
	for i, jf := range jfs {
		f := layout.Field{Path: jf.Path, Type: jf.Type, Offset: jf.Offset, Size: jf.Size, Align: jf.Align, Len: jf.Len, Parent: -1, ForcedAlign: jf.ForcedAlign, ViaTypedef: jf.ViaTypedef}
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
			if f.BitSize <= 0 || f.BitOffset < 0 || f.BitOffset+f.BitSize > 8*max(f.Size, 1) {
				return nil, fmt.Errorf("fields[%d] (%s): bit_offset %d and bit_size %d do not fit its %d bytes", i, jf.Path, f.BitOffset, f.BitSize, f.Size)
			}
		}
		if f.Len < 0 || f.Len > 0 && (f.Kind != layout.KindArray || f.Size%f.Len != 0) {
			return nil, fmt.Errorf("fields[%d] (%s): len %d does not fit a %s of %d bytes", i, jf.Path, f.Len, f.Kind, f.Size)
		}
		if len(jf.Elem) > 0 {
			if f.Kind != layout.KindArray || f.Len == 0 {
				return nil, fmt.Errorf("fields[%d] (%s): elem belongs to arrays with elements", i, jf.Path)
			}
			e := &layout.Struct{Name: jf.Type, Source: s.Source, Arch: s.Arch, Size: f.Size / f.Len, Align: max(f.Align, 1)}
			ef, err := fieldsOf(jf.Elem, e)
			if err != nil {
				return nil, fmt.Errorf("fields[%d] (%s) elem: %v", i, jf.Path, err)
			}
			e.Fields = ef
			if err := e.Validate(); err != nil {
				return nil, fmt.Errorf("fields[%d] (%s) elem: %v", i, jf.Path, err)
			}
			f.Elem = e
		}
		for len(open) > 0 && !claims(&fields[open[len(open)-1]], f.Path) {
			open = open[:len(open)-1]
		}
		prefix := ""
		if len(open) > 0 {
			f.Parent = open[len(open)-1]
			f.Depth = fields[f.Parent].Depth + 1
			prefix = memberPrefix(&fields[f.Parent])
		}
		rest, ok := strings.CutPrefix(f.Path, prefix)
		if !ok || rest == "" || firstDot(rest) >= 0 {
			return nil, fmt.Errorf("fields[%d] (%s): the path does not follow from the member before it that holds it", i, jf.Path)
		}
		if !strings.HasSuffix(rest, "}") {
			f.Name = rest
		}
		fields = append(fields, f)
		if f.Aggregate() {
			open = append(open, len(fields)-1)
		}
	}
	return fields, nil
}

// memberPrefix is what the paths of an aggregate's members start with:
// its path and a dot, or for an anonymous one its parent's.
func memberPrefix(p *layout.Field) string {
	if p.Name != "" || !strings.HasSuffix(p.Path, "}") {
		return p.Path + "."
	}
	if i := lastDot(p.Path); i >= 0 {
		return p.Path[:i+1]
	}
	return ""
}

// claims reports whether a member path belongs inside aggregate p: below
// its path, or for an anonymous struct or union (written kind{a,b}) below
// its parent's path and starting with one of the names it lists.
func claims(p *layout.Field, path string) bool {
	if p.Name != "" || !strings.HasSuffix(p.Path, "}") {
		return strings.HasPrefix(path, p.Path+".")
	}
	parent, list := "", p.Path
	if i := lastDot(p.Path); i >= 0 {
		parent, list = p.Path[:i+1], p.Path[i+1:]
	}
	rest, ok := strings.CutPrefix(path, parent)
	if !ok {
		return false
	}
	_, names, _ := strings.Cut(strings.TrimSuffix(list, "}"), "{")
	first := rest
	if i := firstDot(rest); i >= 0 {
		first = rest[:i]
	}
	return slices.Contains(strings.Split(names, ","), first) || strings.HasSuffix(first, "}")
}

// firstDot is the index of the first dot outside braces.
func firstDot(s string) int {
	depth := 0
	for i := range len(s) {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case '.':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
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
