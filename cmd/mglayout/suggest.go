package main

import (
	"flag"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/layout/suggest"
)

func init() {
	register(&cli.Command{
		Name:  "suggest",
		Args:  "T",
		Short: "a cache-aware member order and padding for all line sizes and phases at once",
		Long: `Suggest searches for an order of a struct's members, and padding where it
removes false sharing, that minimises what its access paths pay at every
requested line size and every phase at once: the lines each path touches
(and the 128-byte blocks below 128 bytes), weighted by the path's rate, and
the false sharing. It prints the suggested declarations in the input's
language, with a diff against the declared ones: Go for a Go type (from
its source, or as a Go binary's DWARF describes it); C in
kernel style for a struct read from DWARF (the diff names the file and
line the DWARF gives) and for a kernel model. Then the figures of every
path before and after.

It never moves a member across deliberate padding (a blank field, a member
named pad..., cpu.CacheLinePad), leaves structs marked structs.HostLayout
alone unless -force is given, and reorders a struct type only where the
object holds it once.

T is a built-in model or scenario (tk_core@v6.1, tk@v6.1), a Go type
(import/path.T or ./dir.T), or with -elf FILE a struct of the file (with
-var NAME, the variable's struct, named or not).`,
		Flags: suggestFlags,
	})
}

func suggestFlags(fs *flag.FlagSet) func(*cli.Context, []string) error {
	var out cli.Layouts
	out.Register(fs, "text") // declarations and a diff, for a reviewer to read
	var load cli.Operands
	load.Register(fs)
	force := fs.Bool("force", false, "reorder structs marked structs.HostLayout too")
	return func(ctx *cli.Context, args []string) error {
		cfg := load.Config(ctx)
		if len(args) == 0 && cfg.Vars != "" && len(cfg.ELF) == 1 {
			args = []string{""} // the -var of the one -elf file
		}
		if len(args) != 1 {
			return cli.Usagef("want one type or model (e.g. mglayout suggest tk_core@v6.1), or -elf FILE -var NAME")
		}
		lines, err := out.LineSizes()
		if err != nil {
			return err
		}
		if _, err := out.Format.Name(); err != nil {
			return err
		}
		set, err := cfg.LoadOne(args[0])
		if err != nil {
			return err
		}
		obj := set.Objects[0]
		r, err := suggest.Suggest(obj, suggest.Options{Lines: lines, Force: *force})
		if err != nil {
			return cli.Usagef("%v", err)
		}
		decls, err := suggest.DeclarationsFor(r, set.Source[obj.Layout])
		if err != nil {
			return cli.Usagef("%v", err)
		}
		figures, err := r.Figures(lines)
		if err != nil {
			return err
		}
		return render.SuggestionText(ctx.Stdout, r, decls, figures, lines)
	}
}
