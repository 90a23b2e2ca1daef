package main

import (
	"flag"
	"io"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/gosrc"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/probe/host"
	"github.com/mglayout/mglayout/structs"
)

func init() {
	register(&command{
		name:  "layout",
		args:  "[models | packages]",
		short: "field offsets against 64- and 128-byte lines and the host's",
		long: `Layout prints every member's offset and size and the cache line it falls
in, for every requested line size at once, in the manner of pahole.

The arguments are built-in kernel models (mglayout layout tk_core@v6.1) or
Go package patterns (mglayout layout ./... -type T). With none, it prints
every built-in model: ` + strings.Join(structs.Names(), ", ") + `.

Go types are sized by go/types with the compiler's rules for each GOARCH
in -arch; the kernel models are modelled for amd64 and arm64.`,
		flags: layoutFlags,
	})
}

// outputFlags are the flags every command that prints layouts shares.
type outputFlags struct {
	lines  string
	format string
	json   bool
}

func (f *outputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.lines, "lines", "", "comma-separated line sizes in bytes (default 64, 128 and the host's)")
	fs.StringVar(&f.format, "format", "text", "output format: text, json or md")
	fs.BoolVar(&f.json, "json", false, "shorthand for -format json")
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

// renderer returns the function that writes the chosen format.
func (f *outputFlags) renderer() (func(io.Writer, []*layout.Struct, render.Options) error, error) {
	format := f.format
	if f.json {
		format = "json"
	}
	switch format {
	case "text":
		return render.Text, nil
	case "json":
		return render.JSON, nil
	case "md", "markdown":
		return render.Markdown, nil
	}
	return nil, usagef("-format %q is not one of text, json, md", format)
}

func layoutFlags(fs *flag.FlagSet) func(*context, []string) error {
	var out outputFlags
	out.register(fs)
	arch := fs.String("arch", "", "comma-separated GOARCHes to size Go types for, several at once (default the host's; kernel models: amd64)")
	types := fs.String("type", "", "comma-separated struct types to show (T or import/path.T); default all")
	tags := fs.String("tags", "", "comma-separated build tags for loading Go packages")
	expand := fs.Bool("expand", false, "show the members of nested structs inline with absolute offsets, like pahole -E")
	return func(ctx *context, args []string) error {
		lines, err := out.lineSizes()
		if err != nil {
			return err
		}
		write, err := out.renderer()
		if err != nil {
			return err
		}
		structsFound, err := loadLayouts(ctx, args, splitList(*arch), splitList(*types), splitList(*tags))
		if err != nil {
			return err
		}
		return write(ctx.stdout, structsFound, render.Options{Lines: lines, Expand: *expand})
	}
}

// loadLayouts resolves the arguments: built-in model names (anything with
// an "@") and Go package patterns. No arguments means every model.
func loadLayouts(ctx *context, args, archs, types, tags []string) ([]*layout.Struct, error) {
	var models, patterns []string
	for _, a := range args {
		if strings.Contains(a, "@") {
			models = append(models, a)
		} else {
			patterns = append(patterns, a)
		}
	}
	if len(args) == 0 {
		models = structs.Names()
	}
	var out []*layout.Struct
	if len(models) > 0 {
		if len(types) > 0 && len(patterns) == 0 {
			return nil, usagef("-type selects Go types; name the kernel models as arguments instead (e.g. mglayout layout tk_core@v6.1)")
		}
		modelArchs := archs
		if len(modelArchs) == 0 {
			modelArchs = structs.Archs[:1]
		}
		for _, arch := range modelArchs {
			for _, name := range models {
				s, err := structs.Lookup(name, arch)
				if err != nil {
					return nil, usagef("%v", err)
				}
				out = append(out, s)
			}
		}
	}
	if len(patterns) > 0 {
		res, err := gosrc.Load(gosrc.Config{Archs: archs, Tags: tags, Types: types}, patterns)
		if err != nil {
			return nil, usagef("%v", err)
		}
		for _, note := range res.Notes {
			ctx.note(note)
		}
		out = append(out, res.Structs...)
	}
	return out, nil
}

// splitList splits a comma-separated flag value, keeping commas inside
// brackets: -type Pair[int8,int64],T is two types.
func splitList(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch s[i] {
			case '[':
				depth++
			case ']':
				depth--
			}
			if s[i] != ',' || depth > 0 {
				continue
			}
		}
		if w := strings.TrimSpace(s[start:i]); w != "" {
			out = append(out, w)
		}
		start = i + 1
	}
	return out
}
