package main

import (
	"flag"
	"os"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/internal/report/pages"
)

func init() {
	register(&cli.Command{
		Name:  "compare",
		Args:  "A.json B.json ...",
		Short: "merge reports from several machines into one cross-platform verdict",
		Long: `Compare merges report.json files written by mglayout report on several
machines (an x86 and an arm64 runner, or one machine before and after a
kernel patch) into one table: per change, path and line size, the static
verdict and the change measured on each machine with its p-value, and an
overall verdict; -format json writes the merged rows with every machine's
comparisons.

Exit status 1 on a significant regression on any machine.`,
		Flags: compareFlags,
	})
}

func compareFlags(fs *flag.FlagSet) func(*cli.Context, []string) error {
	var out cli.Format
	out.Register(fs, "text", "json")
	return func(ctx *cli.Context, args []string) error {
		format, err := out.Name()
		if err != nil {
			return err
		}
		if len(args) < 2 {
			return cli.Usagef("want two or more report.json files (e.g. mglayout compare x86/report.json arm64/report.json)")
		}
		var machines []report.Machine
		for i, name := range args {
			f, err := os.Open(name)
			if err != nil {
				return cli.Usagef("%v", err)
			}
			r, err := report.Read(f)
			f.Close()
			if err != nil {
				return cli.Usagef("%s: %v", name, err)
			}
			machines = append(machines, report.Machine{Label: string(rune('A' + i%26)), File: name, Report: r})
		}
		m := report.Merge(machines)
		if format == "json" {
			err = cli.WriteJSON(ctx.Stdout, m)
		} else {
			err = pages.CompareText(ctx.Stdout, m)
		}
		if err != nil {
			return err
		}
		if len(m.Regressions()) > 0 {
			return cli.ErrFinding
		}
		return nil
	}
}
