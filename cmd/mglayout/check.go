package main

import (
	"flag"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/layout/sharing"
)

func init() {
	register(&cli.Command{
		Name:  "check",
		Args:  "[models | packages]",
		Short: "lines each access path touches, and true vs false sharing, per line size and phase",
		Long: `Check runs the access paths of each struct over its layout, for every line
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
		Flags: checkFlags,
	})
}

func checkFlags(fs *flag.FlagSet) func(*cli.Context, []string) error {
	var out cli.Layouts
	out.Register(fs)
	var load cli.Operands
	load.Register(fs)
	return func(ctx *cli.Context, args []string) error {
		lines, err := out.LineSizes()
		if err != nil {
			return err
		}
		format, err := out.Format.Name()
		if err != nil {
			return err
		}
		objects, err := load.Config(ctx).Objects(args)
		if err != nil {
			return err
		}
		a, err := sharing.Analyze(objects, lines)
		if err != nil {
			return cli.Usagef("%v", err)
		}
		switch format {
		case "json":
			err = render.CheckJSON(ctx.Stdout, a)
		case "md":
			err = render.CheckMarkdown(ctx.Stdout, a)
		default:
			err = render.CheckText(ctx.Stdout, a)
		}
		if err != nil {
			return err
		}
		for _, oa := range a.Objects {
			for i := range oa.Cases {
				if oa.Cases[i].FalseWeight() > 0 {
					return cli.ErrFinding
				}
			}
		}
		return nil
	}
}
