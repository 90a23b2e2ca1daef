package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/mglayout/mglayout/layout"
)

// Text writes the structs in the manner of pahole: one line per member
// with its offset and size, hole and boundary comments, and a summary, plus
// a column per line size giving the line (or range of lines) each member
// occupies when the object starts on a line boundary.
func Text(w io.Writer, structs []*layout.Struct, o Options) error {
	var b strings.Builder
	for i, s := range structs {
		if i > 0 {
			b.WriteString("\n")
		}
		textStruct(&b, s, o)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// textWriter holds the column widths of one struct.
type textWriter struct {
	b            *strings.Builder
	s            *layout.Struct
	o            Options
	typeW, nameW int
	lineW        []int
}

func textStruct(b *strings.Builder, s *layout.Struct, o Options) {
	t := &textWriter{b: b, s: s, o: o, typeW: 10, nameW: 8, lineW: make([]int, len(o.Lines))}
	for _, i := range o.visible(s) {
		f := &s.Fields[i]
		if !f.Aggregate() || !o.Expand {
			t.typeW = max(t.typeW, min(len(f.Type), 40)+4*f.Depth)
		}
		t.nameW = max(t.nameW, len(f.Name)+1)
		for k, l := range o.Lines {
			t.lineW[k] = max(t.lineW[k], len(f.Lines(l, 0).String()), len(fmt.Sprint(l)))
		}
	}

	header := fmt.Sprintf("%s (%s, %s)", s.Name, s.Source, s.Arch)
	if syn := synopsis(s.Doc); syn != "" {
		header += ": " + syn
	}
	for i, line := range wrap(header, 72) {
		if i == 0 {
			fmt.Fprintf(b, "/* %s\n", line)
		} else {
			fmt.Fprintf(b, " * %s\n", line)
		}
	}
	b.WriteString(" */\n")
	fmt.Fprintf(b, "struct %s {\n", s.Name)
	t.columnHeader()

	var last int64             // offset up to which boundaries have been marked
	prevEnd := map[int]int64{} // per aggregate, the end of its last member so far
	for _, i := range o.visible(s) {
		f := &s.Fields[i]
		indent := strings.Repeat("\t", f.Depth+1)
		if end, ok := prevEnd[f.Parent]; ok && f.Offset > end {
			fmt.Fprintf(b, "\n%s/* XXX %d bytes hole, try to pack */\n\n", indent, f.Offset-end)
		}
		prevEnd[f.Parent] = max(prevEnd[f.Parent], f.End())
		for _, bd := range crossed(o.Lines, last, f.Offset) {
			fmt.Fprintf(b, "%s/* --- %s boundary (%d bytes)", indent, bd.label(), bd.offset)
			if ago := f.Offset - bd.offset; ago > 0 {
				fmt.Fprintf(b, " was %d bytes ago", ago)
			}
			b.WriteString(" --- */\n")
		}
		last = max(last, f.Offset)
		if o.Expand && f.Aggregate() {
			fmt.Fprintf(b, "%s%s {\n", indent, aggregateOpen(f))
		} else {
			t.member(indent, f.Type, f.Name+";", f)
			t.straddles(indent, f)
		}
		t.closeAggregates(i)
	}

	members := s.Members(-1)
	var sum int64
	for _, i := range members {
		sum += s.Fields[i].Size
	}
	var counts []string
	for _, l := range o.Lines {
		counts = append(counts, fmt.Sprintf("%d at %d B", s.LineCount(l), l))
	}
	fmt.Fprintf(b, "\n\t/* size: %d, cachelines: %s, members: %d */\n", s.Size, strings.Join(counts, ", "), len(members))
	if holes := s.DirectHoles(-1); len(holes) > 0 {
		var hs int64
		for _, h := range holes {
			hs += h.Size
		}
		fmt.Fprintf(b, "\t/* sum members: %d, holes: %d, sum holes: %d */\n", sum, len(holes), hs)
	}
	if p := s.TailPadding(-1); p > 0 {
		fmt.Fprintf(b, "\t/* padding: %d */\n", p)
	}
	if n, ps := paddedMembers(s, -1); n > 0 {
		fmt.Fprintf(b, "\t/* paddings: %d, sum paddings: %d */\n", n, ps)
	}
	var lastLine []string
	for _, l := range o.Lines {
		if r := s.Size % l; r != 0 {
			lastLine = append(lastLine, fmt.Sprintf("%d bytes at %d B", r, l))
		}
	}
	if len(lastLine) > 0 {
		fmt.Fprintf(b, "\t/* last cacheline: %s */\n", strings.Join(lastLine, ", "))
	}
	fmt.Fprintf(b, "\t/* phases: %s (object aligned to %d) */\n", phaseSummary(s, o.Lines), s.Align)
	if s.Align > naturalAlign(s) {
		fmt.Fprintf(b, "} __attribute__((__aligned__(%d)));\n", s.Align)
	} else {
		b.WriteString("};\n")
	}
}

// columnHeader labels the offset, size and line columns.
func (t *textWriter) columnHeader() {
	var cols []string
	for k, l := range t.o.Lines {
		cols = append(cols, fmt.Sprintf("%*d", t.lineW[k], l))
	}
	pad := strings.Repeat(" ", t.typeW+1+t.nameW)
	fmt.Fprintf(t.b, "\t%s /* offset  size | line %s */\n", pad, strings.Join(cols, " "))
}

// member writes one member line: type, name, offset, size and lines.
func (t *textWriter) member(indent, typ, name string, f *layout.Field) {
	var cols []string
	for k, l := range t.o.Lines {
		cols = append(cols, fmt.Sprintf("%*s", t.lineW[k], f.Lines(l, 0)))
	}
	typeW := t.typeW - 4*f.Depth // a tab of indentation stands for 4 columns
	line := fmt.Sprintf("%s%-*s %-*s", indent, max(typeW, len(typ)), typ, t.nameW, name)
	fmt.Fprintf(t.b, "%s /* %6d %5d |      %s */\n", line, f.Offset, f.Size, strings.Join(cols, " "))
}

// straddles notes a scalar member that crosses a line boundary: it is
// loaded and stored as two lines, and an atomic access to it is split.
func (t *textWriter) straddles(indent string, f *layout.Field) {
	if f.Kind != layout.KindScalar {
		return
	}
	for _, l := range t.o.Lines {
		if sp := f.Lines(l, 0); sp.Straddles() {
			fmt.Fprintf(t.b, "%s/* XXX straddles the %d B line boundary at %d */\n", indent, l, sp.Last*l)
		}
	}
}

// closeAggregates closes, after member i, every expanded aggregate whose
// last member i is.
func (t *textWriter) closeAggregates(i int) {
	s := t.s
	if !t.o.Expand {
		if f := &s.Fields[i]; f.Kind == layout.KindStruct {
			if p := s.TailPadding(i); p > 0 {
				fmt.Fprintf(t.b, "\n\t/* XXX last struct has %d bytes of padding */\n", p)
			}
		}
		return
	}
	for p := i; p >= 0; {
		parent := s.Fields[p].Parent
		if parent < 0 || !isLastMember(s, parent, p) || (p == i && s.Fields[i].Aggregate() && len(s.Members(i)) > 0) {
			return
		}
		pf := &s.Fields[parent]
		indent := strings.Repeat("\t", pf.Depth+1)
		if pad := s.TailPadding(parent); pad > 0 && pf.Kind == layout.KindStruct {
			fmt.Fprintf(t.b, "\n%s\t/* XXX %d bytes of padding */\n\n", indent, pad)
		}
		t.member(indent, "}", pf.Name+";", pf)
		p = parent
	}
}

func isLastMember(s *layout.Struct, parent, i int) bool {
	m := s.Members(parent)
	return len(m) > 0 && m[len(m)-1] == i
}

func aggregateOpen(f *layout.Field) string {
	if f.Name == "" {
		return f.Kind.String()
	}
	return f.Type
}

// synopsis returns the first sentence of a doc comment on one line,
// without the Go identifier that a doc comment starts with: "tk_core_v6_1
// is the timekeeper core ..." reads "The timekeeper core ...", while
// "... is tk_core as of ..." keeps the kernel's lower-case name.
func synopsis(doc string) string {
	para, _, _ := strings.Cut(strings.TrimSpace(doc), "\n\n")
	para = strings.Join(strings.Fields(para), " ")
	if i := strings.Index(para, ". "); i >= 0 {
		para = para[:i+1]
	}
	para = strings.TrimSuffix(para, ":")
	if first, rest, ok := strings.Cut(para, " is "); ok && !strings.Contains(first, " ") && rest != "" {
		para = rest
		if word, _, _ := strings.Cut(rest, " "); strings.Trim(word, "abcdefghijklmnopqrstuvwxyz") == "" {
			para = strings.ToUpper(rest[:1]) + rest[1:]
		}
	}
	return para
}

// wrap breaks text into lines of at most width columns at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}
