package main

import (
	"flag"
	"os"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/layout/sharing"
)

func init() {
	register(&command{
		name:  "diff",
		args:  "OLD NEW",
		short: "before/after verdict per path, line size and phase; exit 1 on any regression",
		long: `Diff compares two layouts of the same data under the same access paths:
for every path present in both, every line size and every phase, the lines
it touches, the 128-byte blocks it touches below 128 bytes, and the lines on
which it takes part in false sharing. It explains the change the way a
reviewer would: what moved, which members a path now finds on separate
lines, and whether the sharing with their writer is true (padding cannot
remove it) or false (padding can).

OLD and NEW are each a built-in model (tk_core@v6.1), a Go type
(import/path.T, or ./dir.T), or a file written by layout -json. With -elf,
they are structs read from DWARF: diff -elf old.o -elf new.o -type T
compares T before and after, with the access paths of -paths.

Exit status 1 if anything regresses at any line size: the CI gate for "this
padding change does not hurt 64-byte platforms".`,
		flags: diffFlags,
	})
}

func diffFlags(fs *flag.FlagSet) func(*context, []string) error {
	var out outputFlags
	out.register(fs)
	var load loadFlags
	load.register(fs)
	return func(ctx *context, args []string) error {
		if len(args) != 2 && len(load.elf) == 0 {
			return usagef("want two arguments, OLD and NEW (e.g. mglayout diff tk_core@v6.1 tk_core@v6.1+guohui)")
		}
		lines, err := out.lineSizes()
		if err != nil {
			return err
		}
		format, err := out.formatName()
		if err != nil {
			return err
		}
		var objs [2]*sharing.Object
		if len(load.elf) > 0 {
			if objs, err = load.elfPair(ctx, args); err != nil {
				return err
			}
		} else {
			for i, arg := range args {
				if objs[i], err = load.one(ctx, arg); err != nil {
					return err
				}
			}
		}
		var sides [2]*sharing.ObjectAnalysis
		for i, o := range objs {
			a, err := sharing.Analyze([]*sharing.Object{o}, lines)
			if err != nil {
				return usagef("%s: %v", o.Layout.Name, err)
			}
			sides[i] = &a.Objects[0]
		}
		r, err := diff.Compare(sides[0], sides[1], lines)
		if err != nil {
			return usagef("%v", err)
		}
		switch format {
		case "json":
			err = render.DiffJSON(ctx.stdout, r)
		case "md":
			err = render.DiffMarkdown(ctx.stdout, r)
		default:
			err = render.DiffText(ctx.stdout, r)
		}
		if err != nil {
			return err
		}
		if r.Regressed() {
			return errFinding
		}
		return nil
	}
}

// one loads a single object: a model, a Go type written pattern.T, or a
// layout -json file holding one struct (or the one -type names); with -elf,
// a struct of an -elf file.
func (f *loadFlags) one(ctx *context, arg string) (*sharing.Object, error) {
	if st, err := os.Stat(arg); len(f.elf) == 0 && (err == nil && !st.IsDir() || strings.HasSuffix(arg, ".json")) {
		return f.fromJSONFile(arg)
	}
	set, err := f.loadOne(ctx, arg)
	if err != nil {
		return nil, err
	}
	s := set.structs[0]
	return &sharing.Object{Layout: s, Paths: set.paths[s], Phases: placement.For(s, set.declared[s]).Func(s)}, nil
}

// loadOne loads the one layout a model name or a Go type pattern.T names,
// or with -elf a struct of an -elf file (T, or FILE:T).
func (f *loadFlags) loadOne(ctx *context, arg string) (*loaded, error) {
	if len(f.elf) > 0 {
		return f.elfOne(ctx, arg)
	}
	var args []string
	g := *f
	if strings.Contains(arg, "@") {
		args = []string{arg}
	} else {
		dot := strings.LastIndex(arg, ".")
		if dot <= 0 || dot == len(arg)-1 || strings.Contains(arg[dot:], "/") {
			return nil, usagef("%s is not a model (NAME@VERSION), a Go type (import/path.T) or a layout -json file", arg)
		}
		args, g.types = []string{arg[:dot]}, arg[dot+1:]
	}
	set, err := g.load(ctx, args)
	if err != nil {
		return nil, err
	}
	if len(set.structs) != 1 {
		return nil, usagef("%s names %d layouts; name one (with -arch, pick one GOARCH)", arg, len(set.structs))
	}
	return set, nil
}

func (f *loadFlags) fromJSONFile(name string) (*sharing.Object, error) {
	file, err := os.Open(name)
	if err != nil {
		return nil, usagef("%v", err)
	}
	defer file.Close()
	structs, paths, err := render.ReadJSON(file)
	if err != nil {
		return nil, usagef("%s: %v (write it with mglayout layout -json)", name, err)
	}
	want := splitList(f.types)
	var names []string
	for _, s := range structs {
		if len(want) == 0 && len(structs) == 1 || len(want) == 1 && (s.Name == want[0] || strings.HasSuffix(s.Name, "."+want[0])) {
			return &sharing.Object{Layout: s, Paths: paths[s], Phases: placement.For(s, s.Source != layout.SourceGo).Func(s)}, nil
		}
		names = append(names, s.Name)
	}
	if len(want) == 0 {
		return nil, usagef("%s holds %d structs (%s); pick one with -type NAME", name, len(structs), strings.Join(names, ", "))
	}
	return nil, usagef("-type %s names no struct in %s (it holds %s)", f.types, name, strings.Join(names, ", "))
}
