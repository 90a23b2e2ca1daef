package main

import (
	"flag"
	"os"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/gosrc"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/layout/suggest"
	"github.com/mglayout/mglayout/structs"
)

// loadFlags are the flags of the commands that read models or Go
// packages.
type loadFlags struct {
	arch, types, tags string
	elfFlags
}

func (f *loadFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.arch, "arch", "", "comma-separated GOARCHes to size Go types for, several at once (default the host's; kernel models: amd64)")
	fs.StringVar(&f.types, "type", "", "comma-separated struct types to use (T or import/path.T); default all")
	fs.StringVar(&f.tags, "tags", "", "comma-separated build tags for loading Go packages")
	f.elfFlags.register(fs)
}

// loaded is what the arguments named: layouts with their access paths.
type loaded struct {
	structs []*layout.Struct
	paths   map[*layout.Struct][]*access.Path
	// declared holds the layouts whose alignment is declared (kernel
	// models, //mglayout:align) rather than left to the Go allocator.
	declared map[*layout.Struct]bool
	// source holds the Go declarations of each layout's types.
	source map[*layout.Struct]*suggest.Files
}

// load resolves the arguments: built-in model names (anything with an "@")
// and Go package patterns, and the -elf files. No arguments and no -elf
// means every model.
func (f *loadFlags) load(ctx *context, args []string) (*loaded, error) {
	archs, types, tags := splitList(f.arch), splitList(f.types), splitList(f.tags)
	var models, patterns []string
	for _, a := range args {
		if strings.Contains(a, "@") {
			models = append(models, a)
		} else {
			patterns = append(patterns, a)
		}
	}
	if len(args) == 0 && len(f.elf) == 0 {
		models = structs.Names()
	}
	set := &loaded{paths: map[*layout.Struct][]*access.Path{}, declared: map[*layout.Struct]bool{}, source: map[*layout.Struct]*suggest.Files{}}
	if len(models) > 0 {
		if len(types) > 0 && len(patterns) == 0 && len(f.elf) == 0 {
			return nil, usagef("-type selects Go types; name the kernel models as arguments instead (e.g. tk_core@v6.1)")
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
				paths, err := structs.Paths(name, arch)
				if err != nil {
					return nil, usagef("%v", err)
				}
				set.structs = append(set.structs, s)
				set.paths[s] = paths
				set.declared[s] = true
				fset, files, src, err := structs.Source()
				if err != nil {
					return nil, err
				}
				set.source[s] = &suggest.Files{Fset: fset, Files: files, Src: src}
			}
		}
	}
	if len(patterns) > 0 {
		res, err := gosrc.Load(gosrc.Config{Archs: archs, Tags: tags, Types: types}, patterns)
		if err != nil && len(f.elf) > 0 {
			// An argument beside -elf is a Go package pattern; the
			// user most likely meant a type of the file.
			return nil, usagef("%s is no Go package: name the types of %s with -type, e.g. mglayout layout -elf %s -type %s",
				strings.Join(patterns, " "), f.elf[0], f.elf[0], patterns[0])
		}
		if err != nil {
			return nil, usagef("%v", err)
		}
		for _, note := range res.Notes {
			ctx.note(note)
		}
		for _, s := range res.Structs {
			if reason, ok := res.Ignored[s]; ok {
				ctx.note(s.Name + " skipped: //mglayout:ignore " + reason)
				continue
			}
			set.structs = append(set.structs, s)
			set.paths[s] = res.Paths[s]
			set.declared[s] = res.Aligned[s]
			if syn := res.Syntax[s]; syn != nil {
				set.source[s] = &suggest.Files{Fset: syn.Fset, Files: syn.Files, Src: readSources(syn)}
			}
		}
	}
	if err := f.loadELF(ctx, set); err != nil {
		return nil, err
	}
	return set, nil
}

// readSources reads the files of a package, for writing declarations back;
// a file that cannot be read is left out, and writing a declaration from
// it then fails with its name.
func readSources(syn *gosrc.Syntax) map[string][]byte {
	src := map[string][]byte{}
	for _, f := range syn.Files {
		name := syn.Fset.Position(f.Pos()).Filename
		if data, err := os.ReadFile(name); err == nil {
			src[name] = data
		}
	}
	return src
}

// objects loads the arguments as objects for the sharing analysis.
func (f *loadFlags) objects(ctx *context, args []string) ([]*sharing.Object, error) {
	set, err := f.load(ctx, args)
	if err != nil {
		return nil, err
	}
	var objects []*sharing.Object
	for _, s := range set.structs {
		objects = append(objects, &sharing.Object{Layout: s, Paths: set.paths[s], Phases: placement.For(s, set.declared[s]).Func(s)})
	}
	return objects, nil
}
