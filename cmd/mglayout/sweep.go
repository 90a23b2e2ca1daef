package main

import (
	gocontext "context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/host"
)

func init() {
	register(&command{
		name:  "sweep",
		args:  "",
		short: "measure this host's destructive-interference distance",
		long: `Sweep measures how far apart a writer and a reader must be for the writer
to run at full speed: a writer adds to the word at offset 0 of a page on one
CPU while a reader loads the word d bytes further on another, for d = 0, 8,
..., 512 and at 4096 as the control, in interleaved rounds. It reports both
rates with 95% confidence intervals and the writer's change against the
control, and the distance from which the writer is never significantly
slower: 64 on most hosts, 128 where the adjacent-line prefetcher pairs lines.

Ctrl-C stops between runs and keeps the rounds measured. Needs 2 CPUs.`,
		flags: sweepFlags,
	})
}

func sweepFlags(fs *flag.FlagSet) func(*context, []string) error {
	count := fs.Int("count", 10, "rounds; each runs every distance once, in a new random order")
	duration := fs.Duration("duration", 50*time.Millisecond, "length of one run")
	maxD := fs.Int64("max", 512, "largest distance in bytes")
	step := fs.Int64("step", 8, "distance step in bytes (a multiple of 8)")
	far := fs.Int64("far", 4096, "distance of the control")
	cpus := fs.String("cpus", "", "the writer's and the reader's CPU, e.g. 0,1 (default: the first two of the affinity mask)")
	var out formatFlags
	out.register(fs, "text", "json")
	bench := fs.String("bench", "", "also write the samples in Go benchmark format to this file, for benchstat")
	return func(ctx *context, args []string) error {
		if len(args) > 0 {
			return usagef("sweep takes no arguments")
		}
		format, err := out.name()
		if err != nil {
			return err
		}
		cpuList, err := parseCPUOrder(*cpus)
		if err != nil {
			return err
		}
		if *bench != "" {
			if err := writableFile(*bench); err != nil {
				return usagef("-bench %s: %v (choose a file you can write)", *bench, err)
			}
		}
		run, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt)
		defer stop()
		lastRound := ""
		r, err := probe.Sweep(run, probe.SweepOptions{Max: *maxD, Step: *step, Far: *far, Duration: *duration, Count: *count, CPUs: cpuList,
			Progress: func(msg string) { lastRound = progressPerRound(ctx, msg, lastRound) }})
		if err != nil {
			return usagef("%v", err)
		}
		if r.Interrupted {
			ctx.note(fmt.Sprintf("interrupted after %d complete rounds; showing those", r.Rounds))
		}
		if *bench != "" {
			if err := writeFile(*bench, func(f *os.File) error { return probe.WriteSweepBench(f, r, duration.Seconds(), cpuConfig()) }); err != nil {
				return err
			}
		}
		if format == "json" {
			enc := json.NewEncoder(ctx.stdout)
			enc.SetIndent("", "  ")
			err = enc.Encode(r)
		} else {
			err = probe.WriteSweep(ctx.stdout, r)
		}
		if err == nil && r.Interrupted {
			err = errInterrupted
		}
		return err
	}
}

// progressPerRound prints a run's progress line when a new round starts:
// one line a round, between runs, never during one.
func progressPerRound(ctx *context, msg, last string) string {
	round, _, _ := cutComma(msg)
	if round != last {
		fmt.Fprintf(ctx.stderr, "mglayout: %s\n", msg)
	}
	return round
}

func cutComma(s string) (string, string, bool) {
	for i := range len(s) {
		if s[i] == ',' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// parseCPUOrder parses a list of CPUs keeping its order and repeats
// (sweep's writer comes first), where parseCPUs sorts ranges.
func parseCPUOrder(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var cpus []int
	for _, w := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 0 {
			return nil, usagef("-cpus %s: %q is not a CPU number (use e.g. 1,0: the writer's CPU, then the reader's)", s, w)
		}
		cpus = append(cpus, n)
	}
	return cpus, nil
}

func parseCPUs(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	cpus, err := host.ParseCPUList(s)
	if err != nil {
		return nil, usagef("-cpus %s: %v (use e.g. 0,1 or 2-5)", s, err)
	}
	return cpus, nil
}

func cpuConfig() probe.Config {
	info, err := host.Detect()
	if err != nil {
		return probe.Config{}
	}
	return probe.Config{CPU: info.CPUID.Brand}
}
