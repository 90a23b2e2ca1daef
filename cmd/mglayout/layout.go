package main

import (
	"flag"
	"strings"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/layout/layoutjson"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/structs"
)

func init() {
	register(&cli.Command{
		Name:  "layout",
		Args:  "[models | packages]",
		Short: "field offsets against 64- and 128-byte lines and the host's",
		// The models' names take type-checking the mirrors.
		LongFunc: func() string {
			return `Layout prints every member's offset and size and the cache line it falls
in, for every requested line size at once, in the manner of pahole.

The arguments are built-in kernel models (mglayout layout tk_core@v6.1) or
scenarios, or Go package patterns (mglayout layout ./... -type T). With
none, it prints every built-in model: ` + strings.Join(structs.Names(), ", ") + `.
The scenarios, each a version's objects laid out as one: ` + strings.Join(structs.ScenarioNames(), ", ") + `.
With -elf FILE, the structs of its DWARF: those -type names, and with -var
the struct each named variable holds, named and aligned after it.

Go types are sized by go/types with the compiler's rules for each GOARCH
in -arch; the kernel models are modelled for amd64 and arm64.`
		},
		Flags: layoutFlags,
	})
}

func layoutFlags(fs *flag.FlagSet) func(*cli.Context, []string) error {
	var out cli.Layouts
	out.Register(fs)
	var load cli.Operands
	load.Register(fs)
	expand := fs.Bool("expand", false, "show the members of nested structs inline with absolute offsets, like pahole -E")
	return func(ctx *cli.Context, args []string) error {
		lines, err := out.LineSizes()
		if err != nil {
			return err
		}
		format, err := out.Format.Name()
		if err != nil {
			return err
		}
		set, err := load.Config(ctx).Load(args)
		if err != nil {
			return err
		}
		o := render.Options{Lines: lines, Expand: *expand}
		switch format {
		case "json":
			return layoutjson.Write(ctx.Stdout, set.Objects, o.Lines)
		case "md":
			return render.Markdown(ctx.Stdout, set.Objects, o)
		}
		return render.Text(ctx.Stdout, set.Objects, o)
	}
}
