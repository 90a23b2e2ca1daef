package main

import (
	gocontext "context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/internal/operand"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/host"
	"github.com/mglayout/mglayout/probe/tables"
)

func init() {
	register(&cli.Command{
		Name:  "probe",
		Args:  "VARIANT [VARIANT ...] | -clock | -kernel",
		Short: "run the access paths of layouts as pinned workers and measure them",
		Long: `Probe runs the access paths of one or more layouts on this machine: each path
as worker goroutines on locked OS threads pinned to CPUs of their own, over
memory from mmap laid out exactly like the layout, at a chosen phase. For
every path and variant it measures the path's completed iterations per
second, with the variant's writers running on other CPUs and alone as the
control, in interleaved rounds (default 10), and prints medians with 95%
confidence intervals, changes with Mann-Whitney p-values ("~" when not
significant), and beside each figure what mglayout check predicted.

A VARIANT is a model (tk_core@v6.1), a Go type (import/path.T) or a layout
-json file; join several objects into one variant with commas
(tk_data@v6.13,mg_floor@v6.13).

-emulate-line 128 emulates a 128-byte-line target on this host: each target
line's accessed bytes are packed into a host line of its own, which keeps
who shares a line with whom and how many lines each path touches; it
refuses when one target line's accessed bytes do not fit a host line.

-clock measures this host's clock reads instead (no layouts), in ns per
call: time.Now (the vDSO, twice); clock_gettime of CLOCK_REALTIME and of
CLOCK_REALTIME_COARSE through libc (the vDSO) and through the raw system call,
in C loops built with cgo; and unix.ClockGettime (the system call); beside
the unverified 2018 figures (vDSO 37.18 vs 6.44 ns, syscall 161.62 vs 133.87
ns, 3.1 GHz Ryzen). A row that cannot be measured says why.

-kernel measures the running kernel the way the timekeeping patches were
measured: will-it-scale's pipe1_threads (one pinned worker per CPU, each
writing 1 byte into a pipe of its own and reading it back; per thread is
LKP's per_thread_ops) and UnixBench's Pipe Throughput (512 bytes, one
worker). It prints uname -r, the nearest built-in model and that model's
check verdicts: the lines each path touches at 64 and 128 bytes and any
false sharing. Give both flags for both.

Ctrl-C stops between runs and keeps the rounds measured. Needs 2 CPUs, and
one more than the writers of a variant (-clock and -kernel need one).`,
		Flags: probeFlags,
	})
}

func probeFlags(fs *flag.FlagSet) func(*cli.Context, []string) error {
	var load cli.Operands
	load.Register(fs)
	count := fs.Int("count", 10, "rounds; each runs every case once, in a new random order")
	duration := fs.Duration("duration", 200*time.Millisecond, "length of one run")
	phase := fs.Int64("phase", -1, "place every object this many bytes past a line boundary (default: each object's first reachable phase)")
	stress := fs.Bool("stress", false, "run the writers as fast as they can instead of at their rate")
	emulate := fs.Int64("emulate-line", 0, "emulate this line size (e.g. 128) on the host's lines")
	spacing := fs.Int64("spacing", 0, "bytes between emulated lines (default: twice the host line, past the adjacent-line prefetcher)")
	cpus := fs.String("cpus", "", "CPUs to use, e.g. 0-3 (default: the affinity mask)")
	measure := fs.String("measure", "", "comma-separated names of the paths to measure (default: all)")
	writers := fs.String("writers", "", "comma-separated writing paths to run beside each measured path (default: every path that writes)")
	var out cli.Format
	out.Register(fs, "text", "json")
	bench := fs.String("bench", "", "also write the samples in Go benchmark format to this file, for benchstat")
	clock := fs.Bool("clock", false, "measure the cost of a fine and a coarse clock read on this host (no layouts)")
	kernel := fs.Bool("kernel", false, "run the pipe workloads on the running kernel and show its nearest model's verdicts (no layouts)")
	return func(ctx *cli.Context, args []string) error {
		format, err := out.Name()
		if err != nil {
			return err
		}
		if *clock || *kernel {
			cpuList, err := cli.CPUs(*cpus)
			if err != nil {
				return err
			}
			return hostProbe{clock: *clock, kernel: *kernel, count: *count, duration: *duration, cpus: cpuList, json: format == "json"}.run(ctx, args)
		}
		if len(args) == 0 {
			return cli.Usagef("name at least one layout to probe (e.g. mglayout probe tk_core@v6.1 tk_core@v6.1+guohui)")
		}
		cpuList, err := cli.CPUs(*cpus)
		if err != nil {
			return err
		}
		if *bench != "" {
			if err := cli.WritableFile(*bench); err != nil {
				return cli.Usagef("-bench %s: %v (choose a file you can write)", *bench, err)
			}
		}
		hostLine := host.NativeLine()
		o := probe.Options{Line: hostLine, Phase: *phase, Duration: *duration, Count: *count, CPUs: cpuList,
			Stress: *stress, Paths: operand.SplitList(*measure), Writers: operand.SplitList(*writers), HostLine: hostLine}
		if *emulate != 0 {
			if err := o.EmulateLine(*emulate, *spacing); err != nil {
				return cli.Usagef("%v", err)
			}
		}
		variants, err := load.Variants(ctx, args)
		if err != nil {
			return err
		}
		run, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt)
		defer stop()
		o.Progress = ctx.RoundProgress()
		r, err := probe.Run(run, variants, o)
		if errors.Is(err, probe.ErrWritersCPUs) {
			return cli.Usagef("%v (choose the writers with -writers, or more CPUs with -cpus)", err)
		}
		if err != nil {
			return cli.Usagef("%v", err)
		}
		if r.Interrupted {
			ctx.Note(fmt.Sprintf("interrupted after %d complete rounds; showing those", r.Rounds))
		}
		if *bench != "" {
			if err := cli.WriteFile(*bench, func(f io.Writer) error { return probe.WriteBench(f, r, cpuConfig()) }); err != nil {
				return err
			}
		}
		if format == "json" {
			err = cli.WriteJSON(ctx.Stdout, r)
		} else {
			predicted, perr := probe.Predict(variants, o)
			if perr != nil {
				return cli.Usagef("%v", perr)
			}
			err = tables.Probe(ctx.Stdout, r, predicted)
		}
		if err == nil && r.Interrupted {
			err = cli.ErrInterrupted
		}
		return err
	}
}
