package main

import (
	gocontext "context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"time"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/internal/confirm"
	"github.com/mglayout/mglayout/internal/operand"
	"github.com/mglayout/mglayout/internal/vet"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/host"
)

func init() {
	register(&cli.Command{
		Name:  "confirm",
		Args:  "[packages]",
		Short: "replay each vet finding of the packages on this machine, as it is and fixed, and measure it",
		Long: `Confirm runs the analyzer over the packages (default "."), as vet does on this
host's GOARCH, and replays each finding of a pair of members on two pinned
CPUs: a worker doing what the finding's writer does to the hot member (an
atomic add, a store) and one doing what its user does to the partner (a
load), over memory laid out as the type is here, at a phase where the
finding holds. It measures the reader beside the writer with the layout as
it is and with suggest's padding between the members, interleaved, and
corrects the comparisons over all findings of the run (Holm).

First it calibrates this host's cost model (-calibrate): for each pair of
operation kinds the findings replay, a writer and a reader on words of
their own, on one line, on adjacent lines and far apart, interleaved. The
model predicts each finding's change from where the fix moves the
writer's word from the reader's, printed beside the measurement with
whether the two agree (within 25 %, the measurement's MDE, or 5 %).
-save-calibration writes it for check, diff and later runs; -calibration
reuses a saved one.

Each finding gets at most -budget of rounds (-count of them where they
fit). A finding that holds at larger lines than this host's (128-byte
lines on arm64, from -falsesharing.arch=arm64, on a 64-byte host) is
replayed under the probe's emulation of those lines, and says so;
-emulate=false replays it as the type lies on this host's lines, which
measures what its padding saves here.

A finding is "measured" when the fix speeds the reader up significantly;
otherwise "not confirmed", with the smallest change the run could have
seen. What it measures is what the layout costs here if the two run at
once; that they do stays the analyzer's evidence, printed beside it.
A finding of a table (FS1) is replayed as two workers writing elements 0
and 1, as laid out and in elements padded to the largest line it holds
at. Findings it cannot replay (pads, runs of variables, generic stand-ins,
sides the probe cannot express) are listed with the reason.

-format json writes each outcome beside its finding and the calibration;
sarif writes every finding as vet -format sarif does, those measured
ranked by the share of the reader's time the fix saves.

Exit status 1 when a finding is measured, 2 on bad input or when fewer than
2 CPUs are usable, 130 when interrupted (what was measured is printed).`,
		Flags: confirmFlags,
	})
}

func confirmFlags(fs *flag.FlagSet) func(*cli.Context, []string) error {
	count := fs.Int("count", 10, "rounds per finding; each runs both layouts once, in a new random order")
	duration := fs.Duration("duration", 50*time.Millisecond, "length of one run")
	budget := fs.Duration("budget", 3*time.Second, "time per finding; fewer rounds than -count where they would not fit")
	emulate := fs.Bool("emulate", true, "replay a finding of larger lines than this host's under the probe's emulation of them; false: as the type lies on this host's lines")
	var calibration cli.Calibration
	calibration.Register(fs)
	saveCal := fs.String("save-calibration", "", "write the calibration measured to this file, for check, diff and later runs")
	cpus := fs.String("cpus", "", "CPUs to use, e.g. 0-3 (default: the affinity mask)")
	tags := fs.String("tags", "", "comma-separated build tags for loading the packages")
	calibrate := fs.Bool("calibrate", true, "first measure this host's sweep at distance 0 and far, and predict each finding's effect from it")
	var out cli.Format
	out.Register(fs, "text", "json", "sarif")
	// The analyzer's own flags, as vet has them: -falsesharing.arch=arm64
	// replays on this host what the analyzer finds for 128-byte lines.
	analyzerFlags(fs)
	return func(ctx *cli.Context, args []string) error {
		format, err := out.Name()
		if err != nil {
			return err
		}
		cpuList, err := cli.CPUs(*cpus)
		if err != nil {
			return err
		}
		if *count < 2 || *duration < probe.MinDuration {
			return cli.Usagef("-count %d -duration %v: want at least 2 rounds of %v", *count, *duration, probe.MinDuration)
		}
		round := confirm.RunsPerRound * *duration
		rounds := min(*count, int(*budget/round))
		if rounds < 2 {
			return cli.Usagef("-budget %v: a finding needs at least 2 rounds of %d runs of %v, %v (raise -budget or lower -duration)", *budget, confirm.RunsPerRound, *duration, 2*round)
		}
		line := host.NativeLine()
		if *saveCal != "" {
			if err := cli.WritableFile(*saveCal); err != nil {
				return cli.Usagef("-save-calibration %s: %v (choose a file you can write)", *saveCal, err)
			}
		}
		cal, err := calibration.Load()
		if err != nil {
			return err
		}
		if cal != nil && *saveCal != "" {
			return cli.Usagef("-calibration %s -save-calibration %s: a saved calibration is not measured again; drop one of them", calibration.File, *saveCal)
		}
		if cal != nil && cal.Line != line {
			return cli.Usagef("-calibration %s: it is of %d-byte lines, this host's are %d (calibrate this host: drop -calibration)", calibration.File, cal.Line, line)
		}
		if _, err := probe.UsableCPUs(cpuList); err != nil {
			return cli.Usagef("%v; confirm runs a writer and a reader on two CPUs at once", err)
		}
		if len(args) == 0 {
			args = []string{"."}
		}
		findings, err := vet.Run(args, false, operand.SplitList(*tags))
		if err != nil {
			return cli.Usagef("%v", err)
		}
		cfg := operand.Config{Arch: runtime.GOARCH, Tags: *tags, Note: ctx.Note}
		// Each package's types laid out once, for all its findings.
		layouts := map[string]map[string]*sharing.Object{}
		var exps []*confirm.Experiment
		var skipped []confirm.Skipped
		for _, f := range findings {
			d := f.Data()
			if d == nil {
				continue
			}
			at := f.Position().String()
			byName, ok := layouts[f.Package()]
			if !ok {
				set, err := cfg.Load([]string{f.Package()})
				if err != nil {
					return cli.Usagef("%v", err)
				}
				byName = map[string]*sharing.Object{}
				for _, o := range set.Objects {
					byName[o.Layout.Name] = o
				}
				layouts[f.Package()] = byName
			}
			obj := byName[f.Package()+"."+d.Object]
			if obj == nil {
				skipped = append(skipped, confirm.Skipped{Where: at, What: d.Object + "." + d.Member, Why: "its type is not one the resolver lays out alone (a table, a run of variables or a generic stand-in)"})
				continue
			}
			e, err := confirm.Plan(d, obj, line, *emulate)
			if err != nil {
				skipped = append(skipped, confirm.Skipped{Where: at, What: d.Object + "." + d.Member, Why: err.Error()})
				continue
			}
			e.Where = at
			exps = append(exps, e)
		}
		run, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt)
		defer stop()
		o := probe.Options{Duration: *duration, Count: rounds, CPUs: cpuList, HostLine: line, Progress: ctx.RoundProgress()}
		if *calibrate && cal == nil && len(exps) > 0 {
			if cal, err = confirm.Calibrate(run, exps, o); err != nil && run.Err() == nil {
				return cli.Usagef("%v", err)
			}
			if cal != nil && *saveCal != "" {
				if err := cal.Save(*saveCal); err != nil {
					return err
				}
			}
		}
		outs, err := confirm.Run(run, exps, o, cal)
		if err != nil && !errors.Is(err, gocontext.Canceled) {
			return cli.Usagef("%v", err)
		}
		switch format {
		case "json":
			err = confirm.WriteJSON(ctx.Stdout, cal, outs, skipped)
		case "sarif":
			err = confirm.WriteSARIF(ctx.Stdout, findings, outs)
		default:
			err = confirm.WriteText(ctx.Stdout, cal, outs, skipped)
		}
		if err != nil {
			return err
		}
		if run.Err() != nil {
			return fmt.Errorf("%w after %d of %d findings", cli.ErrInterrupted, len(outs), len(exps))
		}
		for _, out := range outs {
			if out.Measured {
				return cli.ErrFinding
			}
		}
		return nil
	}
}
