package suggest

import (
	"fmt"
	"strings"

	"github.com/mglayout/mglayout/layout"
)

// CDeclarations writes, for every reordered or padded aggregate of a C struct
// (read from DWARF, or a built-in kernel model), its declaration in C as
// declared and as suggested, in kernel style: a tab before each member
// and tabs before its name, the member's C type, bitfields, arrays and
// pointers to functions as C writes them, anonymous structs and unions
// written out, the inserted padding as char arrays, and above a member
// the comment lines comments holds for its path (a model's; DWARF keeps
// no comments). Both come from the same writer, so a diff shows only
// what moved.
func CDeclarations(r *Result, comments map[string][]string) []Declaration {
	var out []Declaration
	for _, path := range r.changed() {
		d := cDecl{s: r.Original, parent: -1}
		at := r.Original.DeclAt
		if path != "" {
			f := r.Original.Field(path)
			d.parent, at = indexOf(r.Original, path), f.DeclAt
		}
		if at != "" {
			at += ", as the DWARF describes it"
		}
		c := cWriter{comments: comments}
		old := c.declaration(d, nil)
		d.s = r.Suggested
		if path != "" {
			d.parent = indexOf(r.Suggested, path)
		}
		suggested := c.declaration(d, r.padsIn(d.parent))
		out = append(out, Declaration{Name: d.name(), At: at, Old: old, New: suggested})
	}
	return out
}

// cDecl is an aggregate declared in C: the object (parent -1) or one of
// its members.
type cDecl struct {
	s      *layout.Struct
	parent int
}

// head and tail are what a declaration of the aggregate writes before
// its "{" and between its "}" and ";": "struct timekeeper" and nothing;
// for a variable, its type and its name ("struct", " tk_core"); for an
// anonymous struct a typedef names, "typedef struct" and the name.
func (d cDecl) head() (head, tail string) {
	s := d.s
	switch {
	case d.parent >= 0:
		return cTypeName(&s.Fields[d.parent]), ""
	case s.VarType != "":
		return s.VarType, " " + s.Name
	case s.Source == layout.SourceDWARF && s.Decl == "":
		return "typedef struct", " " + s.Name
	}
	name, _, _ := strings.Cut(s.Name, "@") // a model: tk_core@v6.1
	return "struct " + name, ""
}

// name is what the declaration declares: "struct timekeeper", tk_core.
func (d cDecl) name() string {
	head, tail := d.head()
	if tail != "" {
		return strings.TrimSpace(tail)
	}
	return head
}

// attribute is the attribute that gives the aggregate an alignment its
// members do not: __aligned__ above it, __packed__ below.
func (d cDecl) attribute() string {
	align := d.s.Align
	if d.parent >= 0 {
		align = d.s.Fields[d.parent].Align
	}
	switch natural := d.s.NaturalAlign(d.parent); {
	case align > natural:
		return fmt.Sprintf(" __attribute__((__aligned__(%d)))", align)
	case align < natural:
		return " __attribute__((__packed__))"
	}
	return ""
}

// cTypeName is the C type of an aggregate member: "struct tk_read_base",
// "union" for an anonymous one.
func cTypeName(f *layout.Field) string {
	if anonymous(f) {
		return f.Kind.String()
	}
	return f.Type
}

// anonymous reports whether an aggregate member's type has no name: a C11
// anonymous struct or union, or a member of a struct type declared in
// place (struct { ... } x).
func anonymous(f *layout.Field) bool {
	return f.Aggregate() && (f.Type == "struct" || f.Type == "union" || strings.Contains(f.Type, "{"))
}

type cWriter struct {
	comments map[string][]string
	b        strings.Builder
}

// declaration writes an aggregate's declaration; pads are inserted
// char arrays by position among the members.
func (c *cWriter) declaration(d cDecl, pads map[int]int64) string {
	c.b.Reset()
	head, tail := d.head()
	c.b.WriteString(head + " {\n")
	c.members(d.s, d.parent, 1, pads)
	// After a variable's name, the attribute is the variable's (tk_core
	// ____cacheline_aligned).
	c.b.WriteString("}" + tail + d.attribute() + ";\n")
	return c.b.String()
}

// members writes the members of an aggregate at a depth of indentation,
// their names aligned at one tab stop.
func (c *cWriter) members(s *layout.Struct, parent, depth int, pads map[int]int64) {
	members := s.Members(parent)
	type line struct {
		comment   []string
		typ, decl string // decl: the declarator, with its ';'
		field     int    // an anonymous aggregate written out, or -1
	}
	var lines []line
	width := 0
	npad := 0
	for k, i := range members {
		f := &s.Fields[i]
		if size, ok := pads[k]; ok {
			lines = append(lines, line{typ: "char", decl: fmt.Sprintf("__pad%d[%d];", npad, size), field: -1,
				comment: []string{"padding: no line holds members on both sides"}})
			npad++
			width = max(width, len("char"))
			continue
		}
		l := line{comment: c.comments[f.Path], field: -1}
		if anonymous(f) {
			l.field = i
		} else {
			l.typ, l.decl = cMember(f)
			width = max(width, len(l.typ))
		}
		lines = append(lines, l)
	}
	indent := strings.Repeat("\t", depth)
	stop := (width/8 + 1) * 8 // the tab stop the names start at
	for _, l := range lines {
		writeComment(&c.b, indent, l.comment)
		if l.field >= 0 {
			f := &s.Fields[l.field]
			c.b.WriteString(indent + f.Kind.String() + " {\n")
			c.members(s, l.field, depth+1, nil)
			c.b.WriteString(indent + "}" + cDecl{s, l.field}.attribute())
			if f.Name != "" {
				c.b.WriteString(" " + f.Name)
			}
			c.b.WriteString(";\n")
			continue
		}
		c.b.WriteString(indent + l.typ)
		for col := len(l.typ); col < stop; col = (col/8 + 1) * 8 {
			c.b.WriteByte('\t')
		}
		c.b.WriteString(l.decl + "\n")
	}
}

func writeComment(b *strings.Builder, indent string, lines []string) {
	switch len(lines) {
	case 0:
	case 1:
		b.WriteString(indent + "/* " + lines[0] + " */\n")
	default:
		b.WriteString(indent + "/*\n")
		for _, l := range lines {
			b.WriteString(strings.TrimRight(indent+" * "+l, " ") + "\n")
		}
		b.WriteString(indent + " */\n")
	}
}

// cMember splits a member's C declaration into the type, which the names
// are aligned after, and the declarator with its ';': "unsigned int" and
// "a:3;", "char" and "*names[4];", "void" and "(*fn)(int);". The type is
// an abstract declarator ("char *[4]", "void (*)(int)"): the name goes
// where its innermost part ends.
func cMember(f *layout.Field) (typ, decl string) {
	t := strings.TrimSpace(f.Type)
	switch {
	case strings.Contains(t, "(") && strings.Contains(t, ")"):
		// A pointer to a function or an array: the name goes before the
		// first ')', which closes the innermost "(*".
		i, k := strings.Index(t, "("), strings.Index(t, ")")
		typ, decl = strings.TrimSpace(t[:i]), t[i:k]+f.Name+t[k:]
	default:
		base, dims := t, ""
		if i := strings.Index(t, "["); i >= 0 {
			base, dims = strings.TrimSpace(t[:i]), t[i:]
		}
		stars := len(base) - len(strings.TrimRight(base, "* "))
		typ = strings.TrimSpace(base[:len(base)-stars])
		decl = strings.ReplaceAll(base[len(base)-stars:], " ", "") + f.Name + dims
	}
	if f.BitSize > 0 {
		decl += fmt.Sprintf(":%d", f.BitSize)
	}
	if f.ForcedAlign {
		decl += fmt.Sprintf(" __attribute__((__aligned__(%d)))", f.Align)
	}
	return typ, decl + ";"
}
