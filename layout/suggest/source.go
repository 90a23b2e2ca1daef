package suggest

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/gosrc"
)

// Declaration is one struct type declaration before and after.
type Declaration struct {
	Name string
	// At says where the declared one comes from, when the input says:
	// "include/linux/timekeeper_internal.h:92, as the DWARF describes it".
	At       string
	Old, New string
}

// DeclarationsFor writes the declarations a suggestion changes, as
// declared and as suggested, in its input's language: Go, from the
// source files of a Go type (each member's comments, tag and type as
// written) or from the members of a Go binary's DWARF, which has no
// source to quote; C for a struct read from DWARF and for a kernel
// model, whose Go mirror (files) keeps the comments (CDeclarations).
func DeclarationsFor(r *Result, files *gosrc.Source) ([]Declaration, error) {
	s := r.Original
	switch {
	case s.FromGoBinary:
		return goDeclarations(r, func(decl string, parent int) ([]memberSource, error) {
			var fields []memberSource
			for _, i := range s.Members(parent) {
				f := &s.Fields[i]
				fields = append(fields, memberSource{f.Name, f.Name + " " + f.Type})
			}
			return fields, nil
		})
	case s.Source != layout.SourceGo:
		var comments map[string][]string
		if files != nil {
			comments = Comments(files, s)
		}
		return CDeclarations(r, comments), nil
	case files != nil:
		return goDeclarations(r, func(decl string, _ int) ([]memberSource, error) {
			st := findStruct(files, decl)
			if st == nil {
				return nil, fmt.Errorf("the declaration of %s is not in the loaded sources", decl)
			}
			return fieldSource(files, st), nil
		})
	}
	return nil, nil
}

// goDeclarations writes, for every reordered or padded struct type, its
// Go declaration in the declared order and in the suggested one, from
// the members fields gives for the type (named decl, the aggregate
// parent of the original layout), with the inserted padding as blank
// fields. Both are gofmt'ed, so a diff shows only what moved.
func goDeclarations(r *Result, fields func(decl string, parent int) ([]memberSource, error)) ([]Declaration, error) {
	var out []Declaration
	for _, path := range r.changed() {
		decl, parent, newParent := r.Original.Decl, -1, -1
		if r.Original.FromGoBinary {
			// The DWARF names the type with its package path.
			decl = decl[strings.LastIndex(decl, ".")+1:]
		}
		if path != "" {
			f := r.Original.Field(path)
			decl, parent, newParent = f.Decl, indexOf(r.Original, path), indexOf(r.Suggested, path)
			if r.Original.FromGoBinary {
				decl = f.Type
			}
		}
		members, err := fields(decl, parent)
		if err != nil {
			return nil, err
		}
		oldText, err := structText(decl, names(r.Original, parent), members, nil)
		if err != nil {
			return nil, err
		}
		newText, err := structText(decl, names(r.Suggested, newParent), members, r.padsIn(newParent))
		if err != nil {
			return nil, err
		}
		out = append(out, Declaration{Name: decl, Old: oldText, New: newText})
	}
	return out, nil
}

// Comments returns the comment lines above each member in the Go
// source of a layout's aggregates (a kernel model's mirror), by member
// path, for CDeclarations; directives are left out.
func Comments(files *gosrc.Source, s *layout.Struct) map[string][]string {
	out := map[string][]string{}
	add := func(decl, prefix string) {
		st := findStruct(files, decl)
		if st == nil {
			return
		}
		for _, f := range st.Fields.List {
			if f.Doc == nil {
				continue
			}
			var lines []string
			for _, c := range f.Doc.List {
				if !strings.HasPrefix(c.Text, gosrc.Prefix) {
					lines = append(lines, strings.TrimSpace(strings.TrimPrefix(c.Text, "//")))
				}
			}
			for _, n := range f.Names {
				out[prefix+n.Name] = lines
			}
		}
	}
	add(s.Decl, "")
	for i := range s.Fields {
		if f := &s.Fields[i]; f.Decl != "" {
			add(f.Decl, f.Path+".")
		}
	}
	return out
}

func indexOf(s *layout.Struct, path string) int {
	for i := range s.Fields {
		if s.Fields[i].Path == path {
			return i
		}
	}
	return -1
}

// names lists the direct members of an aggregate by name, in order; a
// blank name stands for padding or a blank field.
func names(s *layout.Struct, parent int) []string {
	var out []string
	for _, i := range s.Members(parent) {
		out = append(out, s.Fields[i].Name)
	}
	return out
}

// changed returns the aggregates whose declarations the suggestion
// changes, by path ("" for the object): those reordered, and those that
// padding is inserted in.
func (r *Result) changed() []string {
	out := slices.Clone(r.Reordered)
	for _, p := range r.Padding {
		path := ""
		if f := r.Suggested.Field(p.Before); f != nil && f.Parent >= 0 {
			path = r.Suggested.Fields[f.Parent].Path
		}
		if !slices.Contains(out, path) {
			out = append(out, path)
		}
	}
	return out
}

// padsIn maps the positions of the inserted pads among the members of an
// aggregate of the suggested layout to their sizes: each pad sits just
// before the member it was inserted for.
func (r *Result) padsIn(parent int) map[int]int64 {
	pads := map[int]int64{}
	members := r.Suggested.Members(parent)
	for _, p := range r.Padding {
		for k, i := range members {
			if r.Suggested.Fields[i].Path == p.Before && k > 0 {
				pads[k-1] = p.Bytes
			}
		}
	}
	return pads
}

func findStruct(files *gosrc.Source, name string) *ast.StructType {
	for _, ts := range gosrc.TypeSpecs(files.Files) {
		if st, ok := ts.Type.(*ast.StructType); ok && ts.Name.Name == name {
			return st
		}
	}
	return nil
}

// memberSource is one member's declaration as written.
type memberSource struct {
	name, text string // text: doc comment lines, then "name Type `tag` // comment"
}

// fieldSource splits a struct's fields into one memberSource per name.
func fieldSource(files *gosrc.Source, st *ast.StructType) []memberSource {
	src := func(n ast.Node) string {
		start, end := files.Fset.Position(n.Pos()), files.Fset.Position(n.End())
		return string(files.Src[start.Filename][start.Offset:end.Offset])
	}
	var out []memberSource
	for _, f := range st.Fields.List {
		var doc, comment string
		if f.Doc != nil {
			for _, c := range f.Doc.List {
				doc += c.Text + "\n"
			}
		}
		if f.Comment != nil {
			comment = " " + src(f.Comment)
		}
		tag := ""
		if f.Tag != nil {
			tag = " " + f.Tag.Value
		}
		typ := src(f.Type)
		if len(f.Names) == 0 { // embedded
			name := typ[strings.LastIndex(typ, ".")+1:]
			out = append(out, memberSource{strings.TrimPrefix(name, "*"), doc + typ + tag + comment})
			continue
		}
		for _, n := range f.Names {
			out = append(out, memberSource{n.Name, doc + n.Name + " " + typ + tag + comment})
		}
	}
	return out
}

// structText writes the declaration with the members in the given order;
// pads are inserted blank fields by position.
func structText(name string, order []string, fields []memberSource, pads map[int]int64) (string, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "type %s struct {\n", name)
	used := make([]bool, len(fields))
	for k, n := range order {
		if size, ok := pads[k]; ok {
			fmt.Fprintf(&b, "_ [%d]byte // padding: no line holds members on both sides\n", size)
			continue
		}
		found := false
		for i, f := range fields {
			if !used[i] && f.name == n {
				used[i], found = true, true
				b.WriteString(f.text + "\n")
				break
			}
		}
		if !found {
			return "", fmt.Errorf("member %s of %s is not in its declaration", n, name)
		}
	}
	b.WriteString("}\n")
	out, err := format.Source(b.Bytes())
	if err != nil {
		return "", fmt.Errorf("formatting %s: %v", name, err)
	}
	return string(out), nil
}
