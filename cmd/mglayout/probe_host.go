package main

import (
	gocontext "context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/structs"
)

// hostProbe is probe -clock and probe -kernel: measurements of the host's
// clock and of its running kernel rather than of a layout.
type hostProbe struct {
	clock, kernel bool
	count         int
	duration      time.Duration
	cpus          []int
	json          bool
}

// hostProbeJSON is what -json writes for -clock and -kernel.
type hostProbeJSON struct {
	Clock  *probe.ClockResult  `json:"clock,omitempty"`
	Kernel *probe.KernelResult `json:"kernel,omitempty"`
}

func (h hostProbe) run(ctx *context, args []string) error {
	if len(args) > 0 {
		return usagef("-clock and -kernel measure this host, not layouts; drop %s or the flag", strings.Join(args, " "))
	}
	run, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt)
	defer stop()
	var out hostProbeJSON
	last := ""
	progress := func(msg string) { last = progressPerRound(ctx, msg, last) }
	if h.clock {
		r, err := probe.Clocks(run, probe.ClockOptions{Duration: h.duration, Count: h.count, CPUs: h.cpus, Progress: progress})
		if err != nil {
			return usagef("%v", err)
		}
		if r.Interrupted {
			ctx.note(fmt.Sprintf("clock reads interrupted after %d complete rounds; showing those", r.Rounds))
		}
		out.Clock = r
	}
	if h.kernel && run.Err() == nil {
		last = ""
		r, err := probe.Kernel(run, probe.KernelOptions{Duration: h.duration, Count: h.count, CPUs: h.cpus, Progress: progress})
		if err != nil {
			return usagef("%v", err)
		}
		if r.Interrupted {
			ctx.note(fmt.Sprintf("pipe workloads interrupted after %d complete rounds; showing those", r.Rounds))
		}
		out.Kernel = r
	}
	if h.json {
		enc := json.NewEncoder(ctx.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if out.Clock != nil {
		if err := probe.WriteClocks(ctx.stdout, out.Clock); err != nil {
			return err
		}
	}
	if out.Kernel != nil {
		if out.Clock != nil {
			fmt.Fprintln(ctx.stdout)
		}
		if err := probe.WriteKernelFigures(ctx.stdout, out.Kernel); err != nil {
			return err
		}
		return writeModelVerdicts(ctx, out.Kernel)
	}
	return nil
}

// writeModelVerdicts writes, beside the kernel's figures, what mglayout
// check says of its nearest model (and of the floor from v6.13): the
// lines each path touches at 64 and 128 bytes, at each phase, and whether
// any line is falsely shared.
func writeModelVerdicts(ctx *context, r *probe.KernelResult) error {
	if r.Model == "" {
		return nil
	}
	names := []string{r.Model}
	if r.Floor != "" {
		names = append(names, r.Floor)
	}
	var objects []*sharing.Object
	for _, name := range names {
		s, err := structs.Lookup(name, structs.Archs[0])
		if err != nil {
			return err
		}
		paths, err := structs.Paths(name, structs.Archs[0])
		if err != nil {
			return err
		}
		objects = append(objects, &sharing.Object{Layout: s, Paths: paths, Phases: placement.For(s, true).Func(s)})
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
	_, err = fmt.Fprint(ctx.stdout, b.String())
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
