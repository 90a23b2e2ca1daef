package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/elfdwarf"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/layout/suggest"
)

// elfFlags are the flags that read structs from ELF files' DWARF and give
// them access paths.
type elfFlags struct {
	elf   []string // -elf FILE, repeatable
	paths string   // -paths FILE: a sidecar file
	path  []string // -path SPEC or -path @FILE, repeatable
}

// listFlag is a repeatable string flag.
type listFlag struct{ list *[]string }

func (l listFlag) String() string {
	if l.list == nil {
		return ""
	}
	return strings.Join(*l.list, " ")
}

func (l listFlag) Set(s string) error {
	*l.list = append(*l.list, s)
	return nil
}

func (f *elfFlags) register(fs *flag.FlagSet) {
	fs.Var(listFlag{&f.elf}, "elf", "read C or Go structs from the DWARF of ELF `FILE` (an object, binary or vmlinux built with -g); repeatable: diff takes two, OLD and NEW")
	fs.Var(listFlag{&f.path}, "path", "an access path `SPEC` for the -elf struct, as in //mglayout:path ('NAME [cpus=N] [rate=N/s] OP=member,...'), or @FILE for a paths file; repeatable")
	fs.StringVar(&f.paths, "paths", "", "a paths `FILE` for -elf structs: [TypeName] sections of access paths and align/padded lines (see the README)")
}

// sidecar reads -paths and -path into one sidecar; nil when neither is
// given.
func (f *elfFlags) sidecar() (*access.Sidecar, error) {
	if f.paths == "" && len(f.path) == 0 {
		return nil, nil
	}
	sc := &access.Sidecar{}
	read := func(name string) error {
		data, err := os.ReadFile(name)
		if err != nil {
			return usagef("paths file: %v", err)
		}
		more, err := access.ParseSidecar(name, strings.NewReader(string(data)))
		if err != nil {
			return usagef("%v (see the README for the paths file format)", err)
		}
		if err := sc.Merge(more); err != nil {
			return usagef("%v", err)
		}
		return nil
	}
	if f.paths != "" {
		if err := read(f.paths); err != nil {
			return nil, err
		}
	}
	for i, spec := range f.path {
		if name, ok := strings.CutPrefix(spec, "@"); ok {
			if err := read(name); err != nil {
				return nil, err
			}
			continue
		}
		if err := sc.AddPath(spec, fmt.Sprintf("-path #%d", i+1)); err != nil {
			return nil, usagef("%v", err)
		}
	}
	return sc, nil
}

// loadELF adds the structs of every -elf file, with the access paths the
// sidecar gives them, to set.
func (f *loadFlags) loadELF(ctx *context, set *loaded) error {
	if len(f.elf) == 0 {
		if f.paths != "" || len(f.path) > 0 {
			return usagef("-paths and -path give access paths to structs read with -elf; Go types declare theirs with //mglayout:path")
		}
		return nil
	}
	var all []*layout.Struct
	for _, name := range f.elf {
		structs, err := f.readELF(ctx, name, splitList(f.types))
		if err != nil {
			return err
		}
		all = append(all, structs...)
	}
	paths, err := f.elfPaths(all)
	if err != nil {
		return err
	}
	for _, s := range all {
		set.structs = append(set.structs, s)
		set.paths[s] = paths[s]
		set.declared[s] = true
	}
	return nil
}

// readELF loads the structs types names (all when none) from one file.
func (f *loadFlags) readELF(ctx *context, name string, types []string) ([]*layout.Struct, error) {
	archs := splitList(f.arch)
	if len(archs) > 1 {
		return nil, usagef("-arch names one GOARCH with -elf (the file's); drop it or give one")
	}
	opts := elfdwarf.Options{Types: types}
	if len(archs) == 1 {
		opts.Arch = archs[0]
	}
	structs, notes, err := elfdwarf.Load(name, opts)
	if err != nil {
		return nil, usagef("%v", err)
	}
	for _, n := range notes {
		ctx.note(name + ": " + n)
	}
	return structs, nil
}

// elfPaths applies the sidecar to the structs: their access paths, and
// the alignment and padding it declares for them.
func (f *loadFlags) elfPaths(structs []*layout.Struct) (map[*layout.Struct][]*access.Path, error) {
	sc, err := f.sidecar()
	if err != nil || sc == nil {
		return nil, err
	}
	unnamed := sc.Unnamed()
	if unnamed != nil && len(structs) != 1 {
		return nil, usagef("the paths outside a [TypeName] section (%s) are for one struct, and -elf gave %d; put them under [TypeName] headers", unnamed.Pos, len(structs))
	}
	out := map[*layout.Struct][]*access.Path{}
	for _, s := range structs {
		var secs []*access.Section
		if unnamed != nil {
			secs = append(secs, unnamed)
		}
		if sec := sc.For(s.Name); sec != nil {
			secs = append(secs, sec)
		}
		for _, sec := range secs {
			s.Align = max(s.Align, sec.Align)
			s.PaddedTo = max(s.PaddedTo, sec.Padded)
			for _, p := range sec.Paths {
				if i := slices.IndexFunc(out[s], func(q *access.Path) bool { return q.Name == p.Name }); i >= 0 {
					return nil, usagef("%s: path %s is given twice for %s (first at %s)", p.Pos, p.Name, s.Name, out[s][i].Pos)
				}
				if _, err := access.Resolve(p, s); err != nil {
					return nil, usagef("%s: %v", p.Pos, err)
				}
				c := *p
				c.Accesses = slices.Clone(p.Accesses)
				out[s] = append(out[s], &c)
			}
		}
	}
	return out, nil
}

// elfStruct loads one struct from one ELF file, with its access paths.
func (f *loadFlags) elfStruct(ctx *context, file, typ string) (*loaded, error) {
	structs, err := f.readELF(ctx, file, []string{typ})
	if err != nil {
		return nil, err
	}
	if len(structs) != 1 {
		var names []string
		for _, s := range structs {
			names = append(names, s.Name)
		}
		return nil, usagef("%s: %s names %d structs (%s); name one", file, typ, len(structs), strings.Join(names, ", "))
	}
	paths, err := f.elfPaths(structs)
	if err != nil {
		return nil, err
	}
	s := structs[0]
	return &loaded{
		structs:  structs,
		paths:    map[*layout.Struct][]*access.Path{s: paths[s]},
		declared: map[*layout.Struct]bool{s: true},
		source:   map[*layout.Struct]*suggest.Files{},
	}, nil
}

// elfObject loads one struct from one ELF file as an object for the
// analysis.
func (f *loadFlags) elfObject(ctx *context, file, typ string) (*sharing.Object, error) {
	set, err := f.elfStruct(ctx, file, typ)
	if err != nil {
		return nil, err
	}
	s := set.structs[0]
	return &sharing.Object{Layout: s, Paths: set.paths[s], Phases: placement.For(s, true).Func(s)}, nil
}

// elfPair returns diff's OLD and NEW from -elf files: with two files and
// one -type, that type in each; with two files and two arguments, the
// first type in the first file and the second in the second; with one
// file, the two types the arguments name in it.
func (f *loadFlags) elfPair(ctx *context, args []string) ([2]*sharing.Object, error) {
	var sides [2]*sharing.Object
	var files, types [2]string
	switch {
	case len(f.elf) == 2 && len(args) == 0:
		t := splitList(f.types)
		if len(t) != 1 {
			return sides, usagef("with two -elf files, name the struct to compare with one -type (e.g. -type tk_core_v6_1)")
		}
		files, types = [2]string{f.elf[0], f.elf[1]}, [2]string{t[0], t[0]}
	case len(f.elf) == 2 && len(args) == 2:
		files, types = [2]string{f.elf[0], f.elf[1]}, [2]string{args[0], args[1]}
	case len(f.elf) == 1 && len(args) == 2:
		files, types = [2]string{f.elf[0], f.elf[0]}, [2]string{args[0], args[1]}
	default:
		return sides, usagef("with -elf, diff takes two files and one -type (diff -elf old.o -elf new.o -type T), or one file and two struct names")
	}
	for i := range sides {
		o, err := f.elfObject(ctx, files[i], types[i])
		if err != nil {
			return sides, err
		}
		sides[i] = o
	}
	return sides, nil
}

// elfOne resolves an argument naming a struct of an -elf file: T when
// there is one file, FILE:T for any of them.
func (f *loadFlags) elfOne(ctx *context, arg string) (*loaded, error) {
	for _, file := range f.elf {
		if typ, ok := strings.CutPrefix(arg, file+":"); ok {
			return f.elfStruct(ctx, file, typ)
		}
	}
	if len(f.elf) != 1 {
		return nil, usagef("%s: with several -elf files, name a struct as FILE:TYPE (e.g. %s:%s)", arg, f.elf[0], arg)
	}
	return f.elfStruct(ctx, f.elf[0], arg)
}
