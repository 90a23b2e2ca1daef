package main

import (
	"flag"
	"slices"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe/costmodel"
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
	var calibration cli.Calibration
	calibration.Register(fs)
	return func(ctx *cli.Context, args []string) error {
		cal, err := calibration.Load()
		if err != nil {
			return err
		}
		lines, err := out.LineSizes()
		if err != nil {
			return err
		}
		if cal != nil && !slices.Contains(lines, cal.Line) {
			return cli.Usagef("-calibration %s: it is of %d-byte lines, not among -lines (add %d)", calibration.File, cal.Line, cal.Line)
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
		var predicted *costmodel.Predicted
		if cal != nil {
			predicted = &costmodel.Predicted{File: calibration.File, Calibration: cal, Pairs: cal.CheckGains(a)}
		}
		switch {
		case format == "json" && predicted != nil:
			err = cli.WriteJSON(ctx.Stdout, struct {
				render.CheckDocument
				Predicted *costmodel.Predicted `json:"predicted"`
			}{render.NewCheckDocument(a), predicted})
		case format == "json":
			err = render.CheckJSON(ctx.Stdout, a)
		case format == "md":
			if err = render.CheckMarkdown(ctx.Stdout, a); err == nil && predicted != nil {
				err = costmodel.WriteGainsMarkdown(ctx.Stdout, cal, predicted.File, predicted.Pairs)
			}
		default:
			if err = render.CheckText(ctx.Stdout, a); err == nil && predicted != nil {
				err = costmodel.WriteGainsText(ctx.Stdout, cal, predicted.File, predicted.Pairs)
			}
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
