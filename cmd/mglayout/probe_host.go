package main

import (
	gocontext "context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/probe"
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
		return report.WriteKernelVerdicts(ctx.stdout, out.Kernel)
	}
	return nil
}
