package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Text writes the structs in the manner of pahole: one line per member
// with its offset and size, hole and boundary comments, and a summary, plus
// a column per line size giving the line (or range of lines) each member
// occupies when the object starts on a line boundary.
func Text(w io.Writer, objects []*sharing.Object, o Options) error {
	// One struct at a time: a vmlinux has thousands.
	var b strings.Builder
	for i, obj := range objects {
		b.Reset()
		if i > 0 {
			b.WriteString("\n")
		}
		textStruct(&b, obj, o)
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// placedBy says who places an object where its policy is more than its
// declared alignment: "; placed as heap or global".
func placedBy(p placement.Policy) string {
	if len(p) == 0 || slices.Equal(p, placement.Policy{placement.Declared}) {
		return ""
	}
	var names []string
	for _, c := range p {
		names = append(names, c.String())
	}
	return "; placed as " + strings.Join(names, " or ")
}

// textWriter holds the column widths of one struct.
type textWriter struct {
	b            *strings.Builder
	s            *layout.Struct
	o            Options
	typeW, nameW int
	lineW        []int
}

func textStruct(b *strings.Builder, obj *sharing.Object, o Options) {
	s := obj.Layout
	t := &textWriter{b: b, s: s, o: o, typeW: 10, nameW: 8, lineW: make([]int, len(o.Lines))}
	for _, i := range o.visible(s) {
		f := &s.Fields[i]
		if !f.Aggregate() || !o.Expand {
			t.typeW = max(t.typeW, min(len(f.Type), 40)+4*f.Depth)
		}
		t.nameW = max(t.nameW, len(f.Name)+1)
		for k, l := range o.Lines {
			t.lineW[k] = max(t.lineW[k], spanWidth(f.Lines(l, 0)), digits(l))
		}
	}

	header := fmt.Sprintf("%s (%s, %s)", s.Name, s.Source, s.Arch)
	if syn := synopsis(s.Doc); syn != "" {
		header += ": " + syn
	}
	for i, line := range textfmt.Wrap(header, 72) {
		if i == 0 {
			fmt.Fprintf(b, "/* %s\n", line)
		} else {
			fmt.Fprintf(b, " * %s\n", line)
		}
	}
	b.WriteString(" */\n")
	fmt.Fprintf(b, "struct %s {\n", s.Name)
	t.columnHeader()

	var last int64              // offset up to which boundaries have been marked
	prevMember := map[int]int{} // per aggregate, the index of its last member so far
	gaps := map[int][]layout.Gap{}
	for _, i := range o.visible(s) {
		f := &s.Fields[i]
		indent := strings.Repeat("\t", f.Depth+1)
		if _, ok := gaps[f.Parent]; !ok {
			gaps[f.Parent] = s.Gaps(f.Parent)
		}
		prev, ok := prevMember[f.Parent]
		if !ok {
			prev = -1
		}
		prevMember[f.Parent] = i
		for _, g := range gaps[f.Parent] {
			if g.After == prev {
				t.hole(indent, g)
			}
		}
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

	sum := s.Summary(-1)
	var counts []string
	for _, l := range o.Lines {
		counts = append(counts, fmt.Sprintf("%d at %d B", s.LineCount(l), l))
	}
	fmt.Fprintf(b, "\n\t/* size: %d, cachelines: %s, members: %d */\n", s.Size, strings.Join(counts, ", "), sum.Members)
	summaryLines(b, sum)
	var lastLine []string
	for _, l := range o.Lines {
		if r := s.Size % l; r != 0 {
			lastLine = append(lastLine, fmt.Sprintf("%d bytes at %d B", r, l))
		}
	}
	if len(lastLine) > 0 {
		fmt.Fprintf(b, "\t/* last cacheline: %s */\n", strings.Join(lastLine, ", "))
	}
	if s.Placed {
		fmt.Fprintf(b, "\t/* at %#x (the symbol table): phase %s */\n", s.Address, phaseSummary(objectPhases(obj), o.Lines))
		if n := neighboursText(s, o.Lines); n != "" {
			fmt.Fprintf(b, "\t/* on its first and last lines: %s */\n", n)
		}
	} else {
		fmt.Fprintf(b, "\t/* phases: %s (object aligned to %d%s) */\n", phaseSummary(objectPhases(obj), o.Lines), s.Align, placedBy(obj.Placement))
	}
	switch natural := s.NaturalAlign(-1); {
	case s.Align > natural:
		fmt.Fprintf(b, "} __attribute__((__aligned__(%d)));\n", s.Align)
	case s.Align < natural:
		b.WriteString("} __attribute__((__packed__));\n")
	default:
		b.WriteString("};\n")
	}
}

// summaryLines writes pahole's figures after the size line, in pahole's
// order and words: members and holes, bitfields and bit holes, padding,
// padded struct members, bit padding, forced alignments.
func summaryLines(b *strings.Builder, sum layout.Summary) {
	if sum.HoleSum > 0 || sum.BitSum > 0 {
		if sum.Bytes > 0 {
			fmt.Fprintf(b, "\t/* sum members: %d", sum.Bytes)
			if sum.HoleSum > 0 {
				fmt.Fprintf(b, ", holes: %d, sum holes: %d", sum.Holes, sum.HoleSum)
			}
			b.WriteString(" */\n")
		}
		if sum.Bits > 0 {
			fmt.Fprintf(b, "\t/* sum bitfield members: %d bits", sum.Bits)
			if sum.BitSum > 0 {
				fmt.Fprintf(b, ", bit holes: %d, sum bit holes: %d bits", sum.BitHoles, sum.BitSum)
			} else {
				fmt.Fprintf(b, " (%d bytes)", sum.Bits/8)
			}
			b.WriteString(" */\n")
		}
	}
	if sum.Padding > 0 {
		fmt.Fprintf(b, "\t/* padding: %d */\n", sum.Padding)
	}
	if sum.Paddings > 0 {
		fmt.Fprintf(b, "\t/* paddings: %d, sum paddings: %d */\n", sum.Paddings, sum.PaddingSum)
	}
	if sum.BitPadding > 0 {
		fmt.Fprintf(b, "\t/* bit_padding: %d bits */\n", sum.BitPadding)
	}
	if sum.Forced > 0 {
		fmt.Fprintf(b, "\t/* forced alignments: %d", sum.Forced)
		if sum.ForcedHoles > 0 {
			fmt.Fprintf(b, ", forced holes: %d, sum forced holes: %d", sum.ForcedHoles, sum.ForcedSum)
		}
		b.WriteString(" */\n")
	}
}

// hole writes pahole's comments for a gap between two members.
func (t *textWriter) hole(indent string, g layout.Gap) {
	if g.Bits > 0 {
		fmt.Fprintf(t.b, "\n%s/* XXX %d %s hole, try to pack */\n", indent, g.Bits, units(g.Bits, "bit"))
	}
	if g.Bytes > 0 {
		fmt.Fprintf(t.b, "\n%s/* XXX %d %s hole, try to pack */\n", indent, g.Bytes, units(g.Bytes, "byte"))
	}
	t.b.WriteString("\n")
}

func units(n int64, unit string) string {
	if n == 1 {
		return unit
	}
	return unit + "s"
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

// member writes one member line: type, name, offset, size and lines. It
// is the line written most, so it appends rather than formats.
func (t *textWriter) member(indent, typ, name string, f *layout.Field) {
	typeW := t.typeW - 4*f.Depth // a tab of indentation stands for 4 columns
	if f.BitSize > 0 {
		name = strings.TrimSuffix(name, ";") + ":" + strconv.FormatInt(f.BitSize, 10) + ";"
	}
	if f.ForcedAlign {
		name = strings.TrimSuffix(name, ";") + " __attribute__((__aligned__(" + strconv.FormatInt(f.Align, 10) + ")));"
	}
	b := t.b
	b.WriteString(indent)
	padRight(b, typ, max(typeW, len(typ)))
	b.WriteByte(' ')
	padRight(b, name, t.nameW)
	b.WriteString(" /* ")
	padLeft(b, strconv.FormatInt(f.Offset, 10), 6)
	if f.BitSize > 0 {
		// pahole's offset:bit size.
		b.WriteByte(':')
		padLeft(b, strconv.FormatInt(f.BitOffset, 10), 2)
		b.WriteByte(' ')
		padLeft(b, strconv.FormatInt(f.Size, 10), 2)
	} else {
		b.WriteByte(' ')
		padLeft(b, strconv.FormatInt(f.Size, 10), 5)
	}
	b.WriteString(" |      ")
	for k, l := range t.o.Lines {
		if k > 0 {
			b.WriteByte(' ')
		}
		padLeft(b, f.Lines(l, 0).String(), t.lineW[k])
	}
	b.WriteString(" */\n")
}

// padRight writes s and spaces up to width, as %-*s does.
func padRight(b *strings.Builder, s string, width int) {
	b.WriteString(s)
	for n := len(s); n < width; n++ {
		b.WriteByte(' ')
	}
}

// padLeft writes spaces up to width and s, as %*s does.
func padLeft(b *strings.Builder, s string, width int) {
	for n := len(s); n < width; n++ {
		b.WriteByte(' ')
	}
	b.WriteString(s)
}

// digits is the width of n in decimal.
func digits(n int64) int { return len(strconv.FormatInt(n, 10)) }

// spanWidth is the width of a span as Span.String writes it.
func spanWidth(sp layout.Span) int {
	if sp.Straddles() {
		return digits(sp.First) + 1 + digits(sp.Last)
	}
	return digits(sp.First)
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
		if f := &s.Fields[i]; f.Kind == layout.KindStruct && !f.ViaTypedef {
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

// neighboursText names a placed variable's neighbours with their offsets
// and sizes and the line sizes at which they share its first or last
// line: "tick_nsec +288 (8 bytes; 64, 128 B)".
func neighboursText(s *layout.Struct, lines []int64) string {
	var out []string
	for _, n := range s.Neighbours {
		var at []string
		for _, l := range lines {
			if sharesEdgeLine(s, n, l) {
				at = append(at, fmt.Sprint(l))
			}
		}
		if len(at) > 0 {
			out = append(out, fmt.Sprintf("%s %+d (%d bytes; %s B)", n.Name, n.Offset, n.Size, strings.Join(at, ", ")))
		}
	}
	return strings.Join(out, ", ")
}

// sharesEdgeLine reports whether a neighbour shares the first or the last
// line of the size with a placed variable.
func sharesEdgeLine(s *layout.Struct, n layout.Neighbour, line int64) bool {
	// The lines' starts, from the variable, at its one phase.
	phase := s.Phases(line)[0]
	first, last := -phase, (phase+s.Size-1)/line*line-phase
	overlaps := func(start int64) bool { return n.Offset < start+line && start < n.Offset+n.Size }
	return overlaps(first) || overlaps(last)
}
