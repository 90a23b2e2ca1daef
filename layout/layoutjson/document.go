package layoutjson

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Document is the `layout -json` schema of DESIGN.md. Fields and
// Holes are at every depth with absolute offsets; Lines is pahole's
// "cachelines" per line size; Placement names who places the object
// (placement.Policy) and Phases lists, per line size, the offsets modulo
// the line at which it can start there.
type Document struct {
	Structs []Struct `json:"structs"`
}

type Struct struct {
	Name        string             `json:"name"`
	Source      layout.Source      `json:"source"`
	Arch        string             `json:"arch"`
	Size        int64              `json:"size"`
	Align       int64              `json:"align"`
	Fields      []Field            `json:"fields"`
	Holes       []Hole             `json:"holes"`
	TailPadding int64              `json:"tail_padding"`
	Lines       map[string]int64   `json:"lines"`
	Placement   placement.Policy   `json:"placement,omitempty"`
	Phases      map[string][]int64 `json:"phases"`
	PaddedTo    int64              `json:"padded_to,omitempty"`
	Pointers    bool               `json:"pointers,omitempty"`
	Doc         string             `json:"doc,omitempty"`
	// Address and Neighbours are a placed variable's (layout.Struct):
	// where the symbol table puts it, and the symbols beside it.
	Address    *Address    `json:"address,omitempty"`
	Neighbours []Neighbour `json:"neighbours,omitempty"`
	// Paths are the access paths, so that check and diff can read the
	// document back.
	Paths []Path `json:"paths,omitempty"`
}

type Field struct {
	Path      string `json:"path"`
	Type      string `json:"type"`
	Offset    int64  `json:"offset"`
	Size      int64  `json:"size"`
	Align     int64  `json:"align"`
	Kind      string `json:"kind,omitempty"` // struct, union or array; omitted for scalars
	Len       int64  `json:"len,omitempty"`  // elements of an array
	BitOffset *int64 `json:"bit_offset,omitempty"`
	BitSize   *int64 `json:"bit_size,omitempty"`
	// ForcedAlign and ViaTypedef carry what pahole's summary counts as
	// forced alignments and paddings (see layout.Field), so that a
	// document read back prints the same summary.
	ForcedAlign bool `json:"forced_align,omitempty"`
	ViaTypedef  bool `json:"via_typedef,omitempty"`
	// Elem lists the members of one element of an array of structs, with
	// offsets from the element's start.
	Elem []Field `json:"elem,omitempty"`
}

// Neighbour is a symbol beside a placed variable (layout.Neighbour).
type Neighbour struct {
	Name   string `json:"name"`
	Offset int64  `json:"offset"`
	Size   int64  `json:"size"`
}

// Address is a placed variable's address, written as a hex string: a
// JSON number above 2^53 loses its low bits in jq and JavaScript, which
// turns a phase of 64 into 0.
type Address uint64

// MarshalText writes the address as 0x and its hex digits.
func (a Address) MarshalText() ([]byte, error) { return fmt.Appendf(nil, "%#x", uint64(a)), nil }

// UnmarshalText reads an address written as 0x and hex digits.
func (a *Address) UnmarshalText(text []byte) error {
	hex, ok := strings.CutPrefix(string(text), "0x")
	v, err := strconv.ParseUint(hex, 16, 64)
	if !ok || err != nil {
		return fmt.Errorf("address %q is not 0x and hex digits", text)
	}
	*a = Address(v)
	return nil
}

type Hole struct {
	Offset int64 `json:"offset"`
	Size   int64 `json:"size"`
	// Nested is set for a hole inside a member's aggregate, which
	// pahole's (and layout's) count of the object's holes leaves out.
	Nested bool `json:"nested,omitempty"`
}

// HoleCount is the object's holes as pahole and layout count them:
// those between its own members, not those inside a member's aggregate.
func (s Struct) HoleCount() int {
	n := 0
	for _, h := range s.Holes {
		if !h.Nested {
			n++
		}
	}
	return n
}

// New converts objects, their layouts, placements and paths,
// to the JSON schema.
func New(objects []*sharing.Object, lines []int64) Document {
	doc := Document{Structs: []Struct{}}
	for _, obj := range objects {
		s := obj.Layout
		js := Struct{
			Name: s.Name, Source: s.Source, Arch: s.Arch,
			Size: s.Size, Align: s.Align,
			Fields:      []Field{},
			Holes:       []Hole{},
			TailPadding: s.TailPadding(-1),
			Lines:       map[string]int64{},
			Placement:   obj.Placement,
			Phases:      map[string][]int64{},
			PaddedTo:    s.PaddedTo,
			Pointers:    s.Pointers,
			Doc:         s.Doc,
		}
		if s.Placed {
			addr := Address(s.Address)
			js.Address = &addr
			js.Neighbours = []Neighbour{}
			for _, n := range s.Neighbours {
				js.Neighbours = append(js.Neighbours, Neighbour(n))
			}
		}
		for _, p := range obj.Paths {
			js.Paths = append(js.Paths, NewPath(p))
		}
		js.Fields = fields(s.Fields)
		for _, h := range s.Holes() {
			js.Holes = append(js.Holes, Hole{Offset: h.Offset, Size: h.Size, Nested: h.In >= 0})
		}
		for _, l := range lines {
			key := strconv.FormatInt(l, 10)
			js.Lines[key] = s.LineCount(l)
			js.Phases[key], _ = obj.Phases(l)
		}
		doc.Structs = append(doc.Structs, js)
	}
	return doc
}

func fields(members []layout.Field) []Field {
	out := []Field{}
	for _, f := range members {
		jf := Field{Path: f.Path, Type: f.Type, Offset: f.Offset, Size: f.Size, Align: f.Align, Len: f.Len, ForcedAlign: f.ForcedAlign, ViaTypedef: f.ViaTypedef}
		if f.Kind != layout.KindScalar {
			jf.Kind = f.Kind.String()
		}
		if f.BitSize > 0 {
			jf.BitOffset, jf.BitSize = &f.BitOffset, &f.BitSize
		}
		if f.Elem != nil {
			jf.Elem = fields(f.Elem.Fields)
		}
		out = append(out, jf)
	}
	return out
}

// Write writes the objects as one indented document, at the line sizes
// given, which Read reads back.
func Write(w io.Writer, objects []*sharing.Object, lines []int64) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(New(objects, lines))
}

// Path is an access path; Spec is its textual form (access.Parse).
type Path struct {
	Name     string `json:"name"`
	CPUs     string `json:"cpus"`
	Rate     string `json:"rate"`
	Spec     string `json:"spec"`
	Doc      string `json:"doc,omitempty"`
	Inferred bool   `json:"inferred,omitempty"`
}

// NewPath converts a path.
func NewPath(p *access.Path) Path {
	return Path{Name: p.Name, CPUs: p.CPUsString(), Rate: p.RateString(), Spec: p.String(), Doc: p.Doc, Inferred: p.Inferred}
}
