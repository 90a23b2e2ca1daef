package main

import (
	"flag"

	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/layout/sharing"
)

func init() {
	register(&command{
		name:  "check",
		args:  "[models | packages]",
		short: "lines each access path touches, and true vs false sharing, per line size and phase",
		long: `Check runs the access paths of each struct over its layout, for every line
size and every phase (offset in its first line) at which the object can
start: the lines each path touches, the 128-byte blocks it touches below
128 bytes (what the adjacent-line prefetcher fetches), and for every line
that a writer stores into and another path touches, whether the sharing is
true (the other path reads what the writer writes: padding cannot help) or
false (it does not: padding can). Lines the object shares with unknown
neighbours are reported too.

Kernel models carry their paths. Go types declare them with
//mglayout:path directives or get them inferred from their members.

Exit status 1 when there is false sharing at any line size or phase.`,
		flags: checkFlags,
	})
}

func checkFlags(fs *flag.FlagSet) func(*context, []string) error {
	var out outputFlags
	out.register(fs)
	var load loadFlags
	load.register(fs)
	return func(ctx *context, args []string) error {
		lines, err := out.lineSizes()
		if err != nil {
			return err
		}
		format, err := out.formatName()
		if err != nil {
			return err
		}
		objects, err := load.config(ctx).Objects(args)
		if err != nil {
			return err
		}
		a, err := sharing.Analyze(objects, lines)
		if err != nil {
			return usagef("%v", err)
		}
		switch format {
		case "json":
			err = render.CheckJSON(ctx.stdout, a)
		case "md":
			err = render.CheckMarkdown(ctx.stdout, a)
		default:
			err = render.CheckText(ctx.stdout, a)
		}
		if err != nil {
			return err
		}
		for _, oa := range a.Objects {
			for i := range oa.Cases {
				if oa.Cases[i].FalseWeight() > 0 {
					return errFinding
				}
			}
		}
		return nil
	}
}
