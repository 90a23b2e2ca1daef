package main

import (
	gocontext "context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/costmodel"
	"github.com/mglayout/mglayout/probe/host"
	"github.com/mglayout/mglayout/probe/tables"
)

func init() {
	register(&cli.Command{
		Name:  "sweep",
		Args:  "",
		Short: "measure this host's destructive-interference distance",
		Long: `Sweep measures how far apart a writer and a reader must be for the writer
to run at full speed: a writer adds to the word at offset 0 of a page on one
CPU while a reader loads the word d bytes further on another, for d = 0, 8,
..., 512 and at 4096 as the control, in interleaved rounds. It reports both
rates with 95% confidence intervals and the writer's change against the
control, and the distance from which the writer is never significantly
slower: 64 on most hosts, 128 where the adjacent-line prefetcher pairs lines.

-save-calibration FILE then calibrates the host's cost model, which check,
diff and confirm predict from (-calibration FILE): for each writer that
stores, adds or CASes beside a reader that loads, stores or adds, the two
on one line, on adjacent lines and far apart, in the same rounds and runs.

Ctrl-C stops between runs and keeps the rounds measured. Needs 2 CPUs.`,
		Flags: sweepFlags,
	})
}

func sweepFlags(fs *flag.FlagSet) func(*cli.Context, []string) error {
	count := fs.Int("count", 10, "rounds; each runs every distance once, in a new random order")
	duration := fs.Duration("duration", 50*time.Millisecond, "length of one run")
	maxD := fs.Int64("max", 512, "largest distance in bytes")
	step := fs.Int64("step", 8, "distance step in bytes (a multiple of 8)")
	far := fs.Int64("far", 4096, "distance of the control")
	cpus := fs.String("cpus", "", "the writer's and the reader's CPU, e.g. 0,1 (default: the first two of the affinity mask)")
	var out cli.Format
	out.Register(fs, "text", "json")
	bench := fs.String("bench", "", "also write the samples in Go benchmark format to this file, for benchstat")
	saveCal := fs.String("save-calibration", "", "then calibrate this host's cost model and write it to this file, for -calibration")
	return func(ctx *cli.Context, args []string) error {
		if len(args) > 0 {
			return cli.Usagef("sweep takes no arguments")
		}
		format, err := out.Name()
		if err != nil {
			return err
		}
		cpuList, err := cli.CPUOrder(*cpus)
		if err != nil {
			return err
		}
		if *bench != "" {
			if err := cli.WritableFile(*bench); err != nil {
				return cli.Usagef("-bench %s: %v (choose a file you can write)", *bench, err)
			}
		}
		if *saveCal != "" {
			if err := cli.WritableFile(*saveCal); err != nil {
				return cli.Usagef("-save-calibration %s: %v (choose a file you can write)", *saveCal, err)
			}
		}
		run, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt)
		defer stop()
		r, err := probe.Sweep(run, probe.SweepOptions{Max: *maxD, Step: *step, Far: *far, Duration: *duration, Count: *count, CPUs: cpuList,
			Progress: ctx.RoundProgress()})
		if err != nil {
			return cli.Usagef("%v", err)
		}
		if r.Interrupted {
			ctx.Note(fmt.Sprintf("interrupted after %d complete rounds; showing those", r.Rounds))
		}
		if *bench != "" {
			if err := cli.WriteFile(*bench, func(f io.Writer) error { return probe.WriteSweepBench(f, r, duration.Seconds(), cpuConfig()) }); err != nil {
				return err
			}
		}
		if *saveCal != "" && !r.Interrupted {
			cal, err := costmodel.Measure(run, costmodel.AllKinds, probe.Options{Duration: *duration, Count: *count, CPUs: cpuList, HostLine: host.NativeLine(), Progress: ctx.RoundProgress()})
			if err != nil && run.Err() == nil {
				return cli.Usagef("%v", err)
			}
			if cal != nil {
				if err := cal.Save(*saveCal); err != nil {
					return err
				}
				ctx.Note("calibration written to " + *saveCal)
			} else {
				r.Interrupted = true
				ctx.Note("interrupted during the calibration; " + *saveCal + " not written")
			}
		}
		if format == "json" {
			err = cli.WriteJSON(ctx.Stdout, r)
		} else {
			err = tables.Sweep(ctx.Stdout, r)
		}
		if err == nil && r.Interrupted {
			err = cli.ErrInterrupted
		}
		return err
	}
}

func cpuConfig() probe.Config {
	info, err := host.Detect()
	if err != nil {
		return probe.Config{}
	}
	return probe.Config{CPU: info.CPUID.Brand}
}
