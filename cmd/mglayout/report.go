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

	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
)

func init() {
	register(&command{
		name:  "report",
		args:  "[VARIANT ...]",
		short: "everything on this machine within a time budget: text, Markdown, JSON and HTML",
		long: `Report runs the whole analysis on the machine in front of it, within a time
budget: the host's line sizes, the static layouts at 64 and 128 bytes and the
host's, the check and diff verdicts, the interference sweep, and the probe
natively and emulated for the other line size. It writes report.txt (plain
text of 80 columns for a mail to a mailing list), report.md, report.json (a
versioned schema that compare merges across machines) and report.html (one
self-contained file with charts) into the -o directory, and shows progress
with an estimate on stderr between runs.

With no arguments it runs the kernel scenario: tk_core as of v6.1, with the
2023 padding, and after the v6.13 reorder with the multigrain floor. With
arguments (models, Go types, layout -json files; commas join objects into one
variant), it lays out, checks and probes those, and diffs the first against
each of the others.

Ctrl-C stops between runs and writes what was measured, marked incomplete.`,
		flags: reportFlags,
	})
}

func reportFlags(fs *flag.FlagSet) func(*context, []string) error {
	var load loadFlags
	load.register(fs)
	out := fs.String("o", "mglayout-report", "directory to write the report into (its four files)")
	var format formatFlags
	format.register(fs, "text", "md", "json", "html")
	budget := fs.Duration("budget", 90*time.Second, "time the whole report may take")
	lines := fs.String("lines", "", "line sizes of the static analysis (default 64, 128 and the host's)")
	cpus := fs.String("cpus", "", "CPUs to use, e.g. 0-3 (default: the affinity mask)")
	return func(ctx *context, args []string) error {
		if *budget < 10*time.Second {
			return usagef("-budget %v is too short for a report; give it at least 10s", *budget)
		}
		// -format writes one document to stdout; -o, the four files.
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		toStdout := set["format"] || set["json"]
		if toStdout && set["o"] {
			return usagef("-o writes the report's four files and -format one document to stdout: use one of them")
		}
		doc, err := format.name()
		if err != nil {
			return err
		}
		of := outputFlags{lines: *lines}
		lineSizes, err := of.lineSizes()
		if err != nil {
			return err
		}
		cpuList, err := parseCPUs(*cpus)
		if err != nil {
			return err
		}
		sc, err := scenario(ctx, &load, args)
		if err != nil {
			return err
		}
		if !toStdout {
			if err := writableDir(*out); err != nil {
				return usagef("-o %s: %v (choose a directory you can write)", *out, err)
			}
		}
		run, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt)
		defer stop()
		r, err := report.Run(run, sc, report.Options{Budget: *budget, Lines: lineSizes, CPUs: cpuList,
			Progress: func(msg string) { fmt.Fprintf(ctx.stderr, "mglayout: %s\n", msg) }})
		if err != nil {
			return usagef("%v", err)
		}
		if !r.Complete {
			ctx.note("the report is incomplete: " + r.Incomplete)
		}
		if toStdout {
			err = report.Writers[doc](ctx.stdout, r)
		} else {
			err = writeReport(ctx, *out, r)
		}
		if err != nil {
			return err
		}
		if run.Err() != nil {
			return errInterrupted
		}
		return nil
	}
}

// scenario builds the kernel scenario, or one from the arguments: each
// a variant, commas joining objects into one.
func scenario(ctx *context, load *loadFlags, args []string) (report.Scenario, error) {
	if len(args) == 0 {
		return report.KernelScenario(func(o *sharing.Object) { o.Phases = placement.For(o.Layout, true).Func(o.Layout) })
	}
	variants, err := load.config(ctx).Variants(args)
	if err != nil {
		return report.Scenario{}, err
	}
	return report.VariantsScenario(variants), nil
}

// writeReport writes the four files and says where.
func writeReport(ctx *context, dir string, r *report.Report) error {
	if err := report.WriteFiles(dir, r); err != nil {
		return err
	}
	fmt.Fprintf(ctx.stdout, "wrote %s in %.1f s (budget %.0f s)\n", strings.Join([]string{
		filepath.Join(dir, "report.txt"), "report.md", "report.json", "report.html"}, ", "), r.Seconds, r.Budget)
	return nil
}
