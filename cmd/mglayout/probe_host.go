package main

import (
	gocontext "context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/internal/report/pages"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/tables"
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

func (h hostProbe) run(ctx *cli.Context, args []string) error {
	if len(args) > 0 {
		return cli.Usagef("-clock and -kernel measure this host, not layouts; drop %s or the flag", strings.Join(args, " "))
	}
	run, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt)
	defer stop()
	var out hostProbeJSON
	if h.clock {
		r, err := probe.Clocks(run, probe.ClockOptions{Duration: h.duration, Count: h.count, CPUs: h.cpus, Progress: ctx.RoundProgress()})
		if err != nil {
			return cli.Usagef("%v", err)
		}
		if r.Interrupted {
			ctx.Note(fmt.Sprintf("clock reads interrupted after %d complete rounds; showing those", r.Rounds))
		}
		out.Clock = r
	}
	if h.kernel && run.Err() == nil {
		r, err := probe.Kernel(run, probe.KernelOptions{Duration: h.duration, Count: h.count, CPUs: h.cpus, Progress: ctx.RoundProgress()})
		if err != nil {
			return cli.Usagef("%v", err)
		}
		if r.Interrupted {
			ctx.Note(fmt.Sprintf("pipe workloads interrupted after %d complete rounds; showing those", r.Rounds))
		}
		out.Kernel = r
	}
	if err := h.write(ctx, out); err != nil {
		return err
	}
	if run.Err() != nil {
		// Interrupted: what was measured is printed, marked so.
		return cli.ErrInterrupted
	}
	return nil
}

// write prints what was measured: as JSON, or as the tables and the
// nearest model's verdicts.
func (h hostProbe) write(ctx *cli.Context, out hostProbeJSON) error {
	if h.json {
		return cli.WriteJSON(ctx.Stdout, out)
	}
	if out.Clock != nil {
		if err := tables.Clocks(ctx.Stdout, out.Clock); err != nil {
			return err
		}
	}
	if out.Kernel != nil {
		if out.Clock != nil {
			fmt.Fprintln(ctx.Stdout)
		}
		if err := tables.Kernel(ctx.Stdout, out.Kernel); err != nil {
			return err
		}
		return pages.WriteKernelVerdicts(ctx.Stdout, out.Kernel)
	}
	return nil
}
