package pages

import (
	"fmt"
	"io"
	"strings"

	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/probe"
)

// WriteKernelVerdicts writes, beside the running kernel's figures (probe
// -kernel), what mglayout check says of its nearest model (and of the floor from v6.13): the
// lines each path touches at 64 and 128 bytes, at each phase, and whether
// any line is falsely shared.
func WriteKernelVerdicts(w io.Writer, r *probe.KernelResult) error {
	kv, err := report.NewKernelVerdicts(r)
	if err != nil || kv == nil {
		return err
	}
	names, a, stamp := kv.Models, kv.Analysis, kv.Stamp
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
			textfmt.Fill(&b, fmt.Sprintf("%d B: %s", line, report.FalseSharingAt(&oa, line)), "  ", "    ", 80)
		}
	}
	fmt.Fprintf(&b, "\nB/phase: line size and the object's offset in its first line; *: the coarse\n"+
		"reader that current_time() calls for every inode timestamp, which each pipe\n"+
		"write and read takes; !: false sharing on a line the path touches.\n")
	_, err = io.WriteString(w, b.String())
	return err
}
