package main

import (
	gocontext "context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/internal/report/pages"
)

func init() {
	register(&cli.Command{
		Name:  "report",
		Args:  "[VARIANT ...]",
		Short: "everything on this machine within a time budget: text, Markdown, JSON and HTML",
		Long: `Report runs the whole analysis on the machine in front of it, within a time
budget: the host's line sizes, the static layouts at 64 and 128 bytes and the
host's, the check and diff verdicts, the interference sweep, and the probe
natively and emulated for the other line size. It writes report.txt (plain
text of 80 columns for a mail to a mailing list), report.md, report.json (a
versioned schema that compare merges across machines) and report.html (one
self-contained file with charts) into the -o directory, and shows progress
with an estimate on stderr between runs.

With no arguments it runs the kernel scenario: tk_core as of v6.1, with the
2023 padding, after the v6.13 reorder with the multigrain floor, and every
later step of tk_data that diff judges (v6.15, v6.17, v7.1), each step
probed with its readers beside the tick. With
arguments (models, Go types, layout -json files; commas join objects into one
variant), it lays out, checks and probes those, and diffs the first against
each of the others.

Every format starts with one conclusion per change: the static verdict per
line size, then the measurement that speaks for it with its 95 % interval,
n, corrected p and MDE, and whether it agrees with the prediction; a
measurement that could not have seen a change of half the rate says it was
too noisy to tell. On one CPU the report keeps the static verdicts, the
clock reads and the pipe workloads, and says what needs a second CPU.
-from FILE renders a report.json written earlier, here or elsewhere.

Ctrl-C stops between runs and writes what was measured, marked incomplete
(exit 130).`,
		Flags: reportFlags,
	})
}

func reportFlags(fs *flag.FlagSet) func(*cli.Context, []string) error {
	var load cli.Operands
	load.Register(fs)
	out := fs.String("o", "mglayout-report", "directory to write the report into (its four files)")
	var format cli.Format
	format.Register(fs, "text", "md", "json", "html")
	budget := fs.Duration("budget", 90*time.Second, "time the whole report may take")
	lines := fs.String("lines", "", "line sizes of the static analysis (default 64, 128 and the host's)")
	cpus := fs.String("cpus", "", "CPUs to use, e.g. 0-3 (default: the affinity mask)")
	from := fs.String("from", "", "render a report.json written earlier, here or on another machine, instead of measuring")
	return func(ctx *cli.Context, args []string) error {
		if *budget < 10*time.Second {
			return cli.Usagef("-budget %v is too short for a report; give it at least 10s", *budget)
		}
		// -format writes one document to stdout; -o, the four files.
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		toStdout := set["format"] || set["json"]
		if toStdout && set["o"] {
			return cli.Usagef("-o writes the report's four files and -format one document to stdout: use one of them")
		}
		doc, err := format.Name()
		if err != nil {
			return err
		}
		if *from != "" {
			return rerender(ctx, *from, args, toStdout, doc, *out)
		}
		lineSizes, err := cli.LineSizes(*lines)
		if err != nil {
			return err
		}
		cpuList, err := cli.CPUs(*cpus)
		if err != nil {
			return err
		}
		sc, err := scenario(ctx, &load, args)
		if err != nil {
			return err
		}
		if !toStdout {
			if err := cli.WritableDir(*out); err != nil {
				return cli.Usagef("-o %s: %v (choose a directory you can write)", *out, err)
			}
		}
		run, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt)
		defer stop()
		r, err := report.Run(run, sc, report.Options{Budget: *budget, Lines: lineSizes, CPUs: cpuList,
			Progress: func(p report.Progress) { fmt.Fprintf(ctx.Stderr, "mglayout: %s\n", p) }})
		if err != nil {
			return cli.Usagef("%v", err)
		}
		if !r.Complete {
			ctx.Note("the report is incomplete: " + r.Incomplete)
		}
		if toStdout {
			err = pages.Writers[doc](ctx.Stdout, r)
		} else {
			err = writeReport(ctx, *out, r)
		}
		if err != nil {
			return err
		}
		if run.Err() != nil {
			return cli.ErrInterrupted
		}
		return nil
	}
}

// rerender renders a recorded report.json in the formats asked for: its
// conclusions follow from the verdicts it recorded, as the report's do.
func rerender(ctx *cli.Context, file string, args []string, toStdout bool, doc, out string) error {
	if len(args) > 0 {
		return cli.Usagef("-from %s renders a report already made; drop %s", file, strings.Join(args, " "))
	}
	f, err := os.Open(file)
	if err != nil {
		return cli.Usagef("-from %v", err)
	}
	defer f.Close()
	r, err := report.Read(f)
	if err != nil {
		return cli.Usagef("-from %s: %v", file, err)
	}
	if toStdout {
		return pages.Writers[doc](ctx.Stdout, r)
	}
	if err := cli.WritableDir(out); err != nil {
		return cli.Usagef("-o %s: %v (choose a directory you can write)", out, err)
	}
	return writeReport(ctx, out, r)
}

// scenario builds the kernel scenario, or one from the arguments: each
// a variant, commas joining objects into one.
func scenario(ctx *cli.Context, load *cli.Operands, args []string) (report.Scenario, error) {
	if len(args) == 0 {
		return report.KernelScenario()
	}
	variants, err := load.Variants(ctx, args)
	if err != nil {
		return report.Scenario{}, err
	}
	return report.VariantsScenario(variants), nil
}

// writeReport writes the four files and says where.
func writeReport(ctx *cli.Context, dir string, r *report.Report) error {
	if err := pages.WriteFiles(dir, r); err != nil {
		return err
	}
	fmt.Fprintf(ctx.Stdout, "wrote %s in %.1f s (budget %.0f s)\n", strings.Join([]string{
		filepath.Join(dir, "report.txt"), "report.md", "report.json", "report.html"}, ", "), r.Seconds, r.Budget)
	return nil
}
