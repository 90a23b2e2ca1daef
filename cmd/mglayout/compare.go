package main

import (
	"encoding/json"
	"flag"
	"os"

	"github.com/mglayout/mglayout/internal/report"
)

func init() {
	register(&command{
		name:  "compare",
		args:  "A.json B.json ...",
		short: "merge reports from several machines into one cross-platform verdict",
		long: `Compare merges report.json files written by mglayout report on several
machines (an x86 and an arm64 runner, or one machine before and after a
kernel patch) into one table: per change, path and line size, the static
verdict and the change measured on each machine with its p-value, and an
overall verdict; -format json writes the merged rows with every machine's
comparisons.

Exit status 1 on a significant regression on any machine.`,
		flags: compareFlags,
	})
}

func compareFlags(fs *flag.FlagSet) func(*context, []string) error {
	var out formatFlags
	out.register(fs, "text", "json")
	return func(ctx *context, args []string) error {
		format, err := out.name()
		if err != nil {
			return err
		}
		if len(args) < 2 {
			return usagef("want two or more report.json files (e.g. mglayout compare x86/report.json arm64/report.json)")
		}
		var machines []report.Machine
		for i, name := range args {
			f, err := os.Open(name)
			if err != nil {
				return usagef("%v", err)
			}
			r, err := report.Read(f)
			f.Close()
			if err != nil {
				return usagef("%s: %v", name, err)
			}
			machines = append(machines, report.Machine{Label: string(rune('A' + i%26)), File: name, Report: r})
		}
		m := report.Merge(machines)
		if format == "json" {
			enc := json.NewEncoder(ctx.stdout)
			enc.SetIndent("", "  ")
			err = enc.Encode(m)
		} else {
			err = report.CompareText(ctx.stdout, m)
		}
		if err != nil {
			return err
		}
		if len(m.Regressions()) > 0 {
			return errFinding
		}
		return nil
	}
}
