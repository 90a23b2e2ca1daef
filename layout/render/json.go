package render

import (
	"encoding/json"
	"io"
	"strconv"

	"github.com/mglayout/mglayout/layout"
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
}

type JSONField struct {
	Path      string `json:"path"`
	Type      string `json:"type"`
	Offset    int64  `json:"offset"`
	Size      int64  `json:"size"`
	Align     int64  `json:"align"`
	BitOffset *int64 `json:"bit_offset,omitempty"`
	BitSize   *int64 `json:"bit_size,omitempty"`
}

type JSONHole struct {
	Offset int64 `json:"offset"`
	Size   int64 `json:"size"`
}

// NewJSONDocument converts layouts to the JSON schema.
func NewJSONDocument(structs []*layout.Struct, o Options) JSONDocument {
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
		}
		for _, f := range s.Fields {
			jf := JSONField{Path: f.Path, Type: f.Type, Offset: f.Offset, Size: f.Size, Align: f.Align}
			if f.BitSize > 0 {
				jf.BitOffset, jf.BitSize = &f.BitOffset, &f.BitSize
			}
			js.Fields = append(js.Fields, jf)
		}
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

// JSON writes the layouts as one indented JSON document.
func JSON(w io.Writer, structs []*layout.Struct, o Options) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewJSONDocument(structs, o))
}
