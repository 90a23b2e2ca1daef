package render

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Markdown writes each struct as a heading, a table with a row per member,
// hole and tail padding and a column per line size, rows marking the line
// boundaries, and a summary sentence: ready to paste into a pull request or
// a patch discussion.
func Markdown(w io.Writer, objects []*sharing.Object, o Options) error {
	var b strings.Builder
	for i, obj := range objects {
		if i > 0 {
			b.WriteString("\n")
		}
		markdownStruct(&b, obj, o)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func markdownStruct(b *strings.Builder, obj *sharing.Object, o Options) {
	s := obj.Layout
	fmt.Fprintf(b, "### `%s` (%s, %s)\n\n", s.Name, s.Source, s.Arch)
	if syn := synopsis(s.Doc); syn != "" {
		fmt.Fprintf(b, "%s\n\n", syn)
	}
	b.WriteString("| offset | size | member | type |")
	for _, l := range o.Lines {
		fmt.Fprintf(b, " line %d |", l)
	}
	b.WriteString("\n|---:|---:|---|---|")
	for range o.Lines {
		b.WriteString("---:|")
	}
	b.WriteString("\n")

	// row writes one row; bit is the first bit of a bitfield past off,
	// written as pahole writes it (off:bit), or -1.
	row := func(off, bit, size int64, member, typ string) {
		offText := strconv.FormatInt(off, 10)
		if bit >= 0 {
			offText += ":" + strconv.FormatInt(bit, 10)
		}
		fmt.Fprintf(b, "| %s | %d | %s | %s |", offText, size, member, typ)
		for _, l := range o.Lines {
			fmt.Fprintf(b, " %s |", strings.Replace(layout.SpanOf(off, size, l, 0).String(), "-", "–", 1))
		}
		b.WriteString("\n")
	}
	var holes []layout.Hole
	for _, h := range s.Holes() {
		if o.Expand || h.In < 0 {
			holes = append(holes, h)
		}
	}
	slices.SortStableFunc(holes, func(a, b layout.Hole) int { return cmp.Compare(a.Offset, b.Offset) })
	// flushHoles writes the rows of the holes that begin before upTo.
	flushHoles := func(upTo int64) {
		for len(holes) > 0 && holes[0].Offset < upTo {
			row(holes[0].Offset, -1, holes[0].Size, "*hole*", "")
			holes = holes[1:]
		}
	}
	var last int64
	for _, i := range o.visible(s) {
		f := &s.Fields[i]
		flushHoles(f.Offset)
		for _, bd := range crossed(o.Lines, last, f.Offset) {
			fmt.Fprintf(b, "| **%d** | | *%s begins* | |%s\n", bd.offset, bd.label(), strings.Repeat(" |", len(o.Lines)))
		}
		last = max(last, f.Offset)
		name, bit, typ := "`"+f.Path+"`", int64(-1), "`"+f.Type+"`"
		if f.Name == "" {
			name = "*anonymous " + f.Kind.String() + "*"
		}
		if f.BitSize > 0 {
			name, bit = "`"+f.Path+":"+strconv.FormatInt(f.BitSize, 10)+"`", f.BitOffset
		}
		if f.ForcedAlign {
			typ += " *aligned(" + strconv.FormatInt(f.Align, 10) + ")*"
		}
		row(f.Offset, bit, f.Size, name, typ)
	}
	flushHoles(s.Size + 1)
	if p := s.TailPadding(-1); p > 0 {
		row(s.Size-p, -1, p, "*padding*", "")
	}

	var counts []string
	for _, l := range o.Lines {
		counts = append(counts, fmt.Sprintf("%d at %d B", s.LineCount(l), l))
	}
	direct := s.DirectHoles(-1)
	var hs int64
	for _, h := range direct {
		hs += h.Size
	}
	holeText := "no holes"
	if len(direct) > 0 {
		holeText = fmt.Sprintf("%d %s (%d bytes)", len(direct), textfmt.Plural(len(direct), "hole", "holes"), hs)
	}
	tail := s.TailPadding(-1)
	fmt.Fprintf(b, "\nSize %d bytes, aligned to %d; lines: %s; %s, %d %s of tail padding. Phases: %s.\n",
		s.Size, s.Align, strings.Join(counts, ", "), holeText, tail, textfmt.Plural(int(tail), "byte", "bytes"), phaseSummary(objectPhases(obj), o.Lines))
	if s.Placed {
		fmt.Fprintf(b, "\nAt `%#x` (the symbol table).", s.Address)
		if n := neighboursText(s, o.Lines); n != "" {
			fmt.Fprintf(b, " On its first and last lines: %s.", n)
		}
		b.WriteString("\n")
	}
}
