package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/structs"
)

// WriteKernelVerdicts writes, beside the running kernel's figures (probe
// -kernel), what mglayout check says of its nearest model (and of the floor from v6.13): the
// lines each path touches at 64 and 128 bytes, at each phase, and whether
// any line is falsely shared.
func WriteKernelVerdicts(w io.Writer, r *probe.KernelResult) error {
	if r.Model == "" {
		return nil
	}
	names := []string{r.Model}
	if r.Floor != "" {
		names = append(names, r.Floor)
	}
	var objects []*sharing.Object
	for _, name := range names {
		o, err := structs.Object(name, structs.Archs[0])
		if err != nil {
			return err
		}
		objects = append(objects, o)
	}
	a, err := sharing.Analyze(objects, []int64{64, 128})
	if err != nil {
		return err
	}
	// The coarse reader every pipe write and read goes through.
	stamp := "ktime_get_coarse_real_ts64"
	if r.Floor != "" {
		stamp = "ktime_get_coarse_real_ts64_mg"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nstatic verdicts (mglayout check %s):\n", strings.Join(names, " "))
	for _, oa := range a.Objects {
		fmt.Fprintf(&b, "\n%s (amd64): lines each path touches\n", oa.Object.Layout.Name)
		rows := [][]string{{"path"}}
		for _, c := range oa.Cases {
			rows[0] = append(rows[0], fmt.Sprintf("%d B/%d", c.Line, c.Phase))
		}
		for i, p := range oa.Object.Paths {
			name := p.Name
			if p.Name == stamp {
				name += " *"
			}
			row := []string{name}
			for _, c := range oa.Cases {
				f := c.Paths[i]
				cell := textfmt.Ranges(f.Lines)
				if len(f.FalseLines) > 0 {
					cell += " !"
				}
				row = append(row, cell)
			}
			rows = append(rows, row)
		}
		textfmt.Table(&b, "  ", rows)
		for _, line := range []int64{64, 128} {
			textfmt.Fill(&b, fmt.Sprintf("%d B: %s", line, falseSharingAt(&oa, line)), "  ", "    ", 80)
		}
	}
	fmt.Fprintf(&b, "\nB/phase: line size and the object's offset in its first line; *: the coarse\n"+
		"reader that current_time() calls for every inode timestamp, which each pipe\n"+
		"write and read takes; !: false sharing on a line the path touches.\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// falseSharingAt sums up the false sharing of an object at one line size,
// over its phases.
func falseSharingAt(oa *sharing.ObjectAnalysis, line int64) string {
	var found []string
	exposed := false
	for i := range oa.Cases {
		c := &oa.Cases[i]
		if c.Line != line {
			continue
		}
		for _, p := range c.FalsePairs() {
			found = append(found, fmt.Sprintf("phase %d line %d: %s writes, %s touches other members", c.Phase, p.Line, p.Writer, p.Other))
		}
		for _, l := range c.Lines {
			if l.Exposed() && len(l.Writers) > 0 {
				exposed = true
			}
		}
	}
	var s string
	if len(found) == 0 {
		s = "no false sharing at any phase"
	} else {
		s = "FALSE SHARING at " + strings.Join(found, "; ")
	}
	if exposed {
		s += "; a line the object writes holds unknown neighbours' bytes at some phase"
	}
	return s
}
