package main

import (
	"flag"
	"slices"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe/costmodel"
)

func init() {
	register(&cli.Command{
		Name:  "diff",
		Args:  "OLD NEW",
		Short: "before/after verdict per path, line size and phase; exit 1 on any regression",
		Long: `Diff compares two layouts of the same data under the same access paths:
for every path present in both, every line size and every phase, the lines
it touches, the 128-byte blocks it touches below 128 bytes, and the lines on
which it takes part in false sharing. It explains the change the way a
reviewer would: what moved, which members a path now finds on separate
lines, and whether the sharing with their writer is true (padding cannot
remove it) or false (padding can).

OLD and NEW are each a built-in model (tk_core@v6.1) or scenario (tk@v6.1:
a version's objects whole, matched by role), a Go type (import/path.T, or
./dir.T), or a file written by layout -json. With -elf, they are structs
read from DWARF: diff -elf old.o -elf new.o -type T (or -var V, the struct
a variable holds) compares it before and after, with the access paths of
-paths (a paths file, or a model's: -paths tk_core@v6.1).

Exit status 1 if the change regresses at any line size: the CI gate for
"this padding change does not hurt 64-byte platforms". The rule:

` + diff.GateRule,
		Flags: diffFlags,
	})
}

func diffFlags(fs *flag.FlagSet) func(*cli.Context, []string) error {
	var out cli.Layouts
	out.Register(fs)
	var load cli.Operands
	load.Register(fs)
	strict := fs.Bool("strict", false, "a rate-limited path that costs more is a regression even where a hot path gains")
	unlike := fs.Bool("unlike", false, "compare objects of different GOARCHes, or with no access path in common, which is otherwise an error")
	var calibration cli.Calibration
	calibration.Register(fs)
	return func(ctx *cli.Context, args []string) error {
		cal, err := calibration.Load()
		if err != nil {
			return err
		}
		cfg := load.Config(ctx)
		if len(args) != 2 && len(cfg.ELF) == 0 {
			return cli.Usagef("want two arguments, OLD and NEW (e.g. mglayout diff tk_core@v6.1 tk_core@v6.1+guohui)")
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
		var objs [2]*sharing.Object
		if len(cfg.ELF) > 0 {
			if objs, err = cfg.ELFPair(args); err != nil {
				return err
			}
		} else {
			for i, arg := range args {
				if objs[i], err = cfg.One(arg); err != nil {
					return err
				}
			}
		}
		if err := diff.Comparable(objs[0], objs[1]); err != nil && !*unlike {
			return cli.Usagef("%v", err)
		}
		var sides [2]*sharing.ObjectAnalysis
		for i, o := range objs {
			a, err := sharing.Analyze([]*sharing.Object{o}, lines)
			if err != nil {
				return cli.Usagef("%s: %v", o.Layout.Name, err)
			}
			sides[i] = &a.Objects[0]
		}
		r, err := diff.Compare(sides[0], sides[1], lines)
		if err != nil {
			return cli.Usagef("%v", err)
		}
		r.Judgement = r.Judge(*strict)
		var predicted *costmodel.Predicted
		if cal != nil {
			predicted = &costmodel.Predicted{File: calibration.File, Calibration: cal, Paths: cal.DiffChanges(r, cal.Line, false)}
		}
		switch {
		case format == "json" && predicted != nil:
			err = cli.WriteJSON(ctx.Stdout, struct {
				render.DiffDocument
				Predicted *costmodel.Predicted `json:"predicted"`
			}{render.NewDiffDocument(r), predicted})
		case format == "json":
			err = render.DiffJSON(ctx.Stdout, r)
		case format == "md":
			if err = render.DiffMarkdown(ctx.Stdout, r); err == nil && predicted != nil {
				err = costmodel.WriteChangesMarkdown(ctx.Stdout, cal, predicted.File, predicted.Paths)
			}
		default:
			if err = render.DiffText(ctx.Stdout, r); err == nil && predicted != nil {
				err = costmodel.WriteChangesText(ctx.Stdout, cal, predicted.File, predicted.Paths)
			}
		}
		if err != nil {
			return err
		}
		if r.Regressed() {
			return cli.ErrFinding
		}
		return nil
	}
}
