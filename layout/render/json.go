package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
)

// JSONDocument is the `layout -json` schema of DESIGN.md. Fields and
// Holes are at every depth with absolute offsets; Lines is pahole's
// "cachelines" per line size; Phases lists, per line size, the offsets
// modulo the line at which the object can start.
type JSONDocument struct {
	Structs []JSONStruct `json:"structs"`
}

type JSONStruct struct {
	Name        string             `json:"name"`
	Source      layout.Source      `json:"source"`
	Arch        string             `json:"arch"`
	Size        int64              `json:"size"`
	Align       int64              `json:"align"`
	Fields      []JSONField        `json:"fields"`
	Holes       []JSONHole         `json:"holes"`
	TailPadding int64              `json:"tail_padding"`
	Lines       map[string]int64   `json:"lines"`
	Phases      map[string][]int64 `json:"phases"`
	PaddedTo    int64              `json:"padded_to,omitempty"`
	Pointers    bool               `json:"pointers,omitempty"`
	Doc         string             `json:"doc,omitempty"`
	// Address and Neighbours are a placed variable's (layout.Struct):
	// where the symbol table puts it, and the symbols beside it.
	Address    *uint64         `json:"address,omitempty"`
	Neighbours []JSONNeighbour `json:"neighbours,omitempty"`
	// Paths are the access paths, so that check and diff can read the
	// document back.
	Paths []JSONPath `json:"paths,omitempty"`
}

type JSONField struct {
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
	Elem []JSONField `json:"elem,omitempty"`
}

// JSONNeighbour is a symbol beside a placed variable (layout.Neighbour).
type JSONNeighbour struct {
	Name   string `json:"name"`
	Offset int64  `json:"offset"`
	Size   int64  `json:"size"`
}

type JSONHole struct {
	Offset int64 `json:"offset"`
	Size   int64 `json:"size"`
}

// NewJSONDocument converts layouts, and their paths where paths has them,
// to the JSON schema.
func NewJSONDocument(structs []*layout.Struct, paths map[*layout.Struct][]*access.Path, o Options) JSONDocument {
	doc := JSONDocument{Structs: []JSONStruct{}}
	for _, s := range structs {
		js := JSONStruct{
			Name: s.Name, Source: s.Source, Arch: s.Arch,
			Size: s.Size, Align: s.Align,
			Fields:      []JSONField{},
			Holes:       []JSONHole{},
			TailPadding: s.TailPadding(-1),
			Lines:       map[string]int64{},
			Phases:      map[string][]int64{},
			PaddedTo:    s.PaddedTo,
			Pointers:    s.Pointers,
			Doc:         s.Doc,
		}
		if s.Placed {
			addr := s.Address
			js.Address = &addr
			js.Neighbours = []JSONNeighbour{}
			for _, n := range s.Neighbours {
				js.Neighbours = append(js.Neighbours, JSONNeighbour(n))
			}
		}
		for _, p := range paths[s] {
			js.Paths = append(js.Paths, NewJSONPath(p))
		}
		js.Fields = jsonFields(s.Fields)
		for _, h := range s.Holes() {
			js.Holes = append(js.Holes, JSONHole{Offset: h.Offset, Size: h.Size})
		}
		for _, l := range o.Lines {
			key := strconv.FormatInt(l, 10)
			js.Lines[key] = s.LineCount(l)
			js.Phases[key] = s.Phases(l)
		}
		doc.Structs = append(doc.Structs, js)
	}
	return doc
}

func jsonFields(fields []layout.Field) []JSONField {
	out := []JSONField{}
	for _, f := range fields {
		jf := JSONField{Path: f.Path, Type: f.Type, Offset: f.Offset, Size: f.Size, Align: f.Align, Len: f.Len, ForcedAlign: f.ForcedAlign, ViaTypedef: f.ViaTypedef}
		if f.Kind != layout.KindScalar {
			jf.Kind = f.Kind.String()
		}
		if f.BitSize > 0 {
			jf.BitOffset, jf.BitSize = &f.BitOffset, &f.BitSize
		}
		if f.Elem != nil {
			jf.Elem = jsonFields(f.Elem.Fields)
		}
		out = append(out, jf)
	}
	return out
}

// JSON writes the layouts as one indented JSON document, without paths.
func JSON(w io.Writer, structs []*layout.Struct, o Options) error {
	return JSONWithPaths(w, structs, nil, o)
}

// JSONWithPaths writes the layouts and their access paths as one indented
// JSON document, which ReadJSON reads back.
func JSONWithPaths(w io.Writer, structs []*layout.Struct, paths map[*layout.Struct][]*access.Path, o Options) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewJSONDocument(structs, paths, o))
}

// PlacementText says where the symbol table puts a placed variable and
// what shares its first and last lines at the line sizes: "At
// 0xffffffff8333fe80 (the symbol table): phase 0 at 64 B. On its first
// and last lines: tick_nsec +288 (8 bytes; 64 B)." Empty when the layout
// is not placed.
func (js JSONStruct) PlacementText(lines []int64) string {
	if js.Address == nil {
		return ""
	}
	s := &layout.Struct{Size: js.Size, Placed: true, Address: *js.Address}
	for _, n := range js.Neighbours {
		s.Neighbours = append(s.Neighbours, layout.Neighbour(n))
	}
	text := fmt.Sprintf("At %#x (the symbol table): phase %s.", *js.Address, phaseSummary(s, lines))
	if n := neighboursText(s, lines); n != "" {
		text += " On its first and last lines: " + n + "."
	}
	return text
}
