package falsesharing

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/gosrc"
	"github.com/mglayout/mglayout/layout/placement"
)

// fieldOf finds the syntax of a member's declaration.
func (c *checker) fieldOf(tn types.Object, member string) *ast.Field {
	pos := c.memberPos(tn, member)
	for n := range c.in.PreorderSeq((*ast.Field)(nil)) {
		f := n.(*ast.Field)
		if f.Pos() <= pos && pos < f.End() {
			for _, name := range f.Names {
				if name.Pos() == pos {
					return f
				}
			}
		}
	}
	return nil
}

// insertPadFix inserts a blank field before the later member, long enough
// that the two share no line at the largest line size, wherever the
// object starts. It applies to members of the outermost struct only.
func (c *checker) insertPadFix(f *finding, s *layout.Struct, line int64) []analysis.SuggestedFix {
	fa, fb := s.Field(f.a), s.Field(f.b)
	field := c.fieldOf(f.tn, f.b)
	if fa == nil || fb == nil || field == nil || fb.Depth > 0 || fa.Depth > 0 || len(field.Names) != 1 {
		return nil
	}
	prevEnd := precedingEnd(s, fb)
	n := roundUp(separated(fa, line, f.granule()), max(fb.Align, 1)) - prevEnd
	text := fmt.Sprintf("_ [%d]byte // keeps %s and %s on separate %d-byte lines\n", n, f.a, f.b, line)
	fixes := c.insertBefore(field, text, fmt.Sprintf("Insert %d bytes of padding before %s", n, f.b))
	return c.withHeadPad(fixes, f, s, fb, line)
}

// separated is the smallest offset at which a member after fa shares no
// line of the given size with it, at any phase that is a multiple of g:
// fa's last byte sits at least (fa.End()-1) mod g into its line, so the
// next member must start a line's length past that.
func separated(fa *layout.Field, line, g int64) int64 {
	last := fa.End() - 1
	return last - last%g + line
}

// granule is the step between the phases at which the finding's object
// can start: the greatest common divisor of its phases and the line.
func (f *finding) granule() int64 {
	g := int64(0)
	for al, p := range f.where {
		g = gcd(g, al.line)
		for _, ph := range p.all {
			g = gcd(g, ph)
		}
	}
	return max(g, 1)
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// headPad is the padding that members before a new or grown line pad
// then need against the previous object (checkExposed's head run):
// enough, before the object's first member, that their line starts
// inside the object wherever its alignment lets it start. It is wanted
// when the hot member is in that run and the object can start mid-line.
// How much is decided once per type and GOARCH (headPadFor), so that
// every finding of the type, at any of the GOARCH's line sizes, carries
// the same edit.
func (c *checker) headPad(f *finding, s *layout.Struct, after *layout.Field, line int64) (analysis.TextEdit, string, bool) {
	top := s.Members(-1)
	first := &s.Fields[top[0]]
	hot := s.Field(f.hot)
	if f.granule() >= line || hot == nil || hot.Depth > 0 || hot.Offset >= after.Offset || linePadField(first) {
		return analysis.TextEdit{}, "", false
	}
	if stride, _ := placement.Stride(s); stride == 0 {
		return analysis.TextEdit{}, "", false
	}
	key := headPadKey{f.tn, s.Arch}
	d, ok := c.headPads[key]
	if !ok {
		d = c.headPadFor(f.tn, s, after, hot)
		if c.headPads == nil {
			c.headPads = map[headPadKey]headPadDecision{}
		}
		c.headPads[key] = d
	}
	if d.n == 0 || d.field == nil {
		return analysis.TextEdit{}, "", false
	}
	return d.edit, fmt.Sprintf("%d bytes of padding before %s", d.n, first.Path), true
}

// headPadKey names a type's head pad on a GOARCH.
type headPadKey struct {
	tn   types.Object
	arch string
}

// headPadDecision is a type's head pad on a GOARCH: n bytes before its
// first member (none when n is 0), as an edit.
type headPadDecision struct {
	n     int64
	field *ast.Field
	edit  analysis.TextEdit
}

// headPadFor decides a type's head pad on a GOARCH, at the largest line
// size the GOARCH is checked at: from the first hot member of the run
// before after (or the finding's hot member, where the run has none) to
// the line's end, wherever the object's alignment lets it start.
func (c *checker) headPadFor(tn types.Object, s *layout.Struct, after, hot *layout.Field) headPadDecision {
	// The padded object has a size class of its own: only its
	// alignment bounds where it starts.
	g := max(s.Align, 1)
	line := slices.Max(c.cfg.linesFor(s.Arch))
	top := s.Members(-1)
	first := &s.Fields[top[0]]
	start := hot.Offset
	for _, i := range top {
		m := &s.Fields[i]
		if m.Offset >= after.Offset || linePadField(m) {
			break
		}
		if c.atomicMember(tn, m.Path) {
			start = min(start, m.Offset)
			break
		}
	}
	n := roundUp(max(line-g-start, 0), max(first.Align, 1))
	field := c.fieldOf(tn, first.Path)
	if n == 0 || field == nil {
		return headPadDecision{}
	}
	text := fmt.Sprintf("_ [%d]byte // keeps the previous object off the %d-byte line of the members below\n", n, line)
	return headPadDecision{n: n, field: field, edit: c.editBefore(field, text)}
}

// withHeadPad adds headPad's edit to a fix that puts a line pad before
// the member after.
func (c *checker) withHeadPad(fixes []analysis.SuggestedFix, f *finding, s *layout.Struct, after *layout.Field, line int64) []analysis.SuggestedFix {
	if len(fixes) == 0 {
		return fixes
	}
	if edit, what, ok := c.headPad(f, s, after, line); ok {
		fixes[0].Message += ", and " + what
		fixes[0].TextEdits = append([]analysis.TextEdit{edit}, fixes[0].TextEdits...)
	}
	return fixes
}

// headPadFix gives an exposed member of the head run the padding of
// headPad.
func (c *checker) headPadFix(f *finding, s *layout.Struct, line int64) []analysis.SuggestedFix {
	for _, i := range s.Members(-1) {
		if m := &s.Fields[i]; linePadField(m) {
			if edit, what, ok := c.headPad(f, s, m, line); ok {
				return []analysis.SuggestedFix{{Message: "Insert " + what, TextEdits: []analysis.TextEdit{edit}}}
			}
			return nil
		}
	}
	return nil
}

// growPadFix lengthens the padding between the two members to what the
// largest line size needs at every phase.
func (c *checker) growPadFix(f *finding, s *layout.Struct, line int64) []analysis.SuggestedFix {
	fa, fb := s.Field(f.a), s.Field(f.b)
	pad := padBetween(s, f.a, f.b)
	if fa == nil || fb == nil || pad == nil || pad.Kind != layout.KindArray || pad.Size != pad.Len {
		return nil // only [N]byte padding can be grown in place
	}
	deficit := separated(fa, line, f.granule()) - fb.Offset
	if deficit <= 0 {
		return nil
	}
	n := pad.Len + roundUp(deficit, max(fb.Align, 1))
	arr := c.padArrayType(f.tn, s, pad)
	if arr == nil {
		return nil
	}
	fixes := []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Pad %d bytes instead of %d", n, pad.Len),
		TextEdits: []analysis.TextEdit{{Pos: arr.Len.Pos(), End: arr.Len.End(), NewText: []byte(strconv.FormatInt(n, 10))}},
	}}
	return c.withHeadPad(fixes, f, s, fb, line)
}

// padArrayType finds the array type of a padding member of the outermost
// struct, by its offset among the blank fields.
func (c *checker) padArrayType(tn types.Object, s *layout.Struct, pad *layout.Field) *ast.ArrayType {
	st := c.structOf(tn)
	if st == nil {
		return nil
	}
	members := s.Members(-1)
	k := 0
	for _, field := range st.Fields.List {
		names := max(len(field.Names), 1)
		for range names {
			if k < len(members) && &s.Fields[members[k]] == pad {
				arr, _ := field.Type.(*ast.ArrayType)
				return arr
			}
			k++
		}
	}
	return nil
}

// structOf returns the struct type expression declaring tn.
func (c *checker) structOf(tn types.Object) *ast.StructType {
	for _, ts := range gosrc.TypeSpecs(c.pass.Files) {
		if c.pass.TypesInfo.Defs[ts.Name] == tn {
			st, _ := ts.Type.(*ast.StructType)
			return st
		}
	}
	return nil
}

// padElementFix pads the element struct of a shard array to a whole line,
// when the element is a struct declared in this package.
func (c *checker) padElementFix(f *finding, arr *layout.Field, elem, line int64) []analysis.SuggestedFix {
	if elem%line == 0 {
		return nil
	}
	field := c.fieldOf(f.tn, f.a)
	if field == nil {
		return nil
	}
	at, ok := field.Type.(*ast.ArrayType)
	if !ok {
		return nil
	}
	var st *ast.StructType
	switch t := at.Elt.(type) {
	case *ast.StructType:
		st = t
	case *ast.Ident:
		if tn, ok := c.pass.TypesInfo.Uses[t].(*types.TypeName); ok && tn.Pkg() == c.pass.Pkg {
			st = c.structOf(tn)
		}
	}
	if st == nil {
		return nil
	}
	n := roundUp(elem, line) - elem
	message := fmt.Sprintf("Pad each element of %s to %d bytes", arr.Path, roundUp(elem, line))
	// An element that ends in byte padding gets it lengthened.
	if fields := st.Fields.List; len(fields) > 0 {
		last := fields[len(fields)-1]
		if at, ok := last.Type.(*ast.ArrayType); ok && paddingName(last) {
			if elt, isIdent := at.Elt.(*ast.Ident); isIdent && elt.Name == "byte" {
				if old, ok := intLit(at.Len); ok {
					return []analysis.SuggestedFix{{Message: message,
						TextEdits: []analysis.TextEdit{{Pos: at.Len.Pos(), End: at.Len.End(), NewText: []byte(strconv.FormatInt(old+n, 10))}}}}
				}
			}
		}
	}
	text := fmt.Sprintf("_ [%d]byte // one %d-byte line per element\n", n, line)
	return []analysis.SuggestedFix{{Message: message, TextEdits: []analysis.TextEdit{c.lineEdit(st.Fields.Closing, text, st.Fields.Opening)}}}
}

// insertBefore inserts a line of source before a field, indented like it.
func (c *checker) insertBefore(field *ast.Field, text, message string) []analysis.SuggestedFix {
	return []analysis.SuggestedFix{{Message: message, TextEdits: []analysis.TextEdit{c.editBefore(field, text)}}}
}

// editBefore is the edit inserting a line before a field, above its doc
// comment.
func (c *checker) editBefore(field *ast.Field, text string) analysis.TextEdit {
	at := field.Pos()
	if field.Doc != nil {
		at = field.Doc.Pos()
	}
	return c.lineEdit(at, text, token.NoPos)
}

// lineEdit inserts text as a line of its own before pos, with the
// indentation of pos's line (or, at a closing brace, of the line after
// open, one level deeper).
func (c *checker) lineEdit(pos token.Pos, text string, open token.Pos) analysis.TextEdit {
	file := c.pass.Fset.File(pos)
	lineStart := file.LineStart(file.Line(pos))
	indent := strings.Repeat("\t", int(pos-lineStart))
	if open.IsValid() {
		if file.Line(open) == file.Line(pos) {
			// struct{ n atomic.Int64 }: break the closing brace onto a
			// line of its own.
			return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte("; " + strings.TrimSuffix(stripComment(text), "\n") + " ")}
		}
		indent += "\t"
	}
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text + indent)}
}

// stripComment drops a trailing line comment, for code inserted inside a
// one-line struct.
func stripComment(text string) string {
	if i := strings.Index(text, " //"); i >= 0 {
		return text[:i] + "\n"
	}
	return text
}

// precedingEnd is the end of the outermost member before fb, or 0.
func precedingEnd(s *layout.Struct, fb *layout.Field) int64 {
	var end int64
	for _, i := range s.Members(-1) {
		f := &s.Fields[i]
		if f.Offset < fb.Offset || f.Offset == fb.Offset && f.Size == 0 && f != fb {
			end = max(end, f.End())
		}
	}
	return end
}
