package main

import (
	"flag"
	"strings"

	"github.com/mglayout/mglayout/internal/operand"
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/probe/host"
	"github.com/mglayout/mglayout/structs"
)

func init() {
	register(&command{
		name:  "layout",
		args:  "[models | packages]",
		short: "field offsets against 64- and 128-byte lines and the host's",
		// The models' names take type-checking the mirrors.
		longFunc: func() string {
			return `Layout prints every member's offset and size and the cache line it falls
in, for every requested line size at once, in the manner of pahole.

The arguments are built-in kernel models (mglayout layout tk_core@v6.1) or
Go package patterns (mglayout layout ./... -type T). With none, it prints
every built-in model: ` + strings.Join(structs.Names(), ", ") + `.

Go types are sized by go/types with the compiler's rules for each GOARCH
in -arch; the kernel models are modelled for amd64 and arm64.`
		},
		flags: layoutFlags,
	})
}

// outputFlags are the flags every command that prints layouts shares.
type outputFlags struct {
	lines  string
	format formatFlags
}

func (f *outputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.lines, "lines", "", "comma-separated line sizes in bytes (default 64, 128 and the host's)")
	f.format.register(fs, "text", "json", "md")
}

// lineSizes returns the requested line sizes, or 64, 128 and those the
// host reports.
func (f *outputFlags) lineSizes() ([]int64, error) {
	if f.lines == "" {
		info, err := host.Detect()
		if err != nil {
			return []int64{64, 128}, nil
		}
		return host.DefaultLines(info), nil
	}
	lines, err := layout.ParseLineSizes(f.lines)
	if err != nil {
		return nil, usagef("-lines %s: %v", f.lines, err)
	}
	return lines, nil
}

// formatName returns the chosen format: text, json or md.
func (f *outputFlags) formatName() (string, error) { return f.format.name() }

func layoutFlags(fs *flag.FlagSet) func(*context, []string) error {
	var out outputFlags
	out.register(fs)
	var load loadFlags
	load.register(fs)
	expand := fs.Bool("expand", false, "show the members of nested structs inline with absolute offsets, like pahole -E")
	return func(ctx *context, args []string) error {
		lines, err := out.lineSizes()
		if err != nil {
			return err
		}
		format, err := out.formatName()
		if err != nil {
			return err
		}
		set, err := load.config(ctx).Load(args)
		if err != nil {
			return err
		}
		o := render.Options{Lines: lines, Expand: *expand}
		switch format {
		case "json":
			return render.JSONWithPaths(ctx.stdout, set.Structs, set.Paths, o)
		case "md":
			return render.Markdown(ctx.stdout, set.Structs, o)
		}
		return render.Text(ctx.stdout, set.Structs, o)
	}
}

// splitList splits a comma-separated flag value, keeping commas inside
// brackets: -type Pair[int8,int64],T is two types.

func splitList(s string) []string { return operand.SplitList(s) }
