package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/mglayout/mglayout/layout/sharing"

	"github.com/mglayout/mglayout/internal/textfmt"
)

// CheckMarkdown writes the analysis as Markdown: per object a table of
// the lines each path touches in every case, and the shared lines as a
// list, for a pull request or a patch discussion.
func CheckMarkdown(w io.Writer, a *sharing.Analysis) error {
	var b strings.Builder
	for i := range a.Objects {
		if i > 0 {
			b.WriteString("\n")
		}
		oa := &a.Objects[i]
		s := oa.Object.Layout
		fmt.Fprintf(&b, "### `%s` (%s, %s): access paths and sharing\n\n", s.Name, s.Source, s.Arch)
		if len(oa.Object.Paths) == 0 {
			b.WriteString("No access paths: nothing is written concurrently.\n")
			continue
		}
		b.WriteString("| path | CPUs, rate |")
		for _, c := range oa.Cases {
			fmt.Fprintf(&b, " %d B / phase %d |", c.Line, c.Phase)
		}
		b.WriteString("\n|---|---|")
		for range oa.Cases {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		for pi, p := range oa.Object.Paths {
			fmt.Fprintf(&b, "| `%s` | %s |", p.Name, cpusRate(p))
			for _, c := range oa.Cases {
				f := c.Paths[pi]
				cell := textfmt.Ranges(f.Lines)
				if c.Line < 128 && len(f.Lines) > 0 {
					cell += fmt.Sprintf(" (%d×128 B)", f.Blocks128)
				}
				if len(f.FalseLines) > 0 {
					cell = "**" + cell + " false sharing**"
				}
				fmt.Fprintf(&b, " %s |", cell)
			}
			b.WriteString("\n")
		}
		b.WriteString("\nLines are numbered from the one holding the object's first byte.\n")
		var falses []string
		for ci := range oa.Cases {
			c := &oa.Cases[ci]
			for _, fp := range c.FalsePairs() {
				falses = append(falses, fmt.Sprintf("- %d B, phase %d, line %d: `%s` writes, `%s` reads only %s",
					c.Line, c.Phase, fp.Line, fp.Writer, fp.Other, strings.Join(fp.Members, ", ")))
			}
		}
		if len(falses) == 0 {
			b.WriteString("\n**No false sharing** at any line size or phase: every shared line is shared truly.\n")
		} else {
			fmt.Fprintf(&b, "\n**False sharing:**\n\n%s\n", strings.Join(falses, "\n"))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
