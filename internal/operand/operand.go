// Package operand turns the operands of mglayout's commands into
// layouts and objects for the analysis: built-in kernel models
// (NAME@VERSION), Go types and packages, layout -json files, and the
// structs of ELF files' DWARF with their paths files, each with the
// access paths and placement it can have. Every command reads its
// operands through it.
package operand

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/elfdwarf"
	"github.com/mglayout/mglayout/layout/gosrc"
	"github.com/mglayout/mglayout/layout/layoutjson"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/structs"
)

// Config is how operands are read: the flags of the commands that read
// layouts.
type Config struct {
	Arch, Types, Tags string   // comma-separated lists, as the flags give them
	Vars              string   // -var: comma-separated variables of -elf files
	ELF               []string // -elf files
	PathsFile         string   // -paths
	PathSpecs         []string // -path specs, or @FILE
	// Note, when set, is told what is worth a note (a type skipped).
	Note func(string)
}

func (f *Config) note(msg string) {
	if f.Note != nil {
		f.Note(msg)
	}
}

// SplitList splits a comma-separated list, dropping empty items; a
// comma inside brackets (Pair[int8,int64]) does not split.
func SplitList(s string) []string {
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

// Set is what the arguments named: objects, each a layout with its access
// paths and its placement.
type Set struct {
	Objects []*sharing.Object
	// Source holds the declarations of each layout's types, where the
	// arguments have them.
	Source map[*layout.Struct]*gosrc.Source
}

// add adds a layout with its paths, placed as placement.For says: at its
// declared alignment (kernel models, C objects, //mglayout:align) or
// where the Go allocator and linker put it.
func (set *Set) add(s *layout.Struct, paths []*access.Path, declared bool) {
	set.Objects = append(set.Objects, &sharing.Object{Layout: s, Paths: paths, Placement: placement.For(s, declared)})
}

// load resolves the arguments: built-in model names (anything with an "@")
// and Go package patterns, and the -elf files. No arguments and no -elf
// means every model.
func (f *Config) Load(args []string) (*Set, error) {
	archs, types, tags := SplitList(f.Arch), SplitList(f.Types), SplitList(f.Tags)
	var models, patterns []string
	set := &Set{Source: map[*layout.Struct]*gosrc.Source{}}
	for _, a := range args {
		if strings.HasSuffix(a, ".json") && len(f.ELF) == 0 {
			objects, err := readJSONFile(a)
			if err != nil {
				return nil, err
			}
			set.Objects = append(set.Objects, objects...)
			continue
		}
		if strings.Contains(a, "@") {
			models = append(models, a)
		} else {
			patterns = append(patterns, a)
		}
	}
	if len(args) == 0 && len(f.ELF) == 0 {
		models = structs.Names()
	}
	if len(models) > 0 {
		if len(types) > 0 && len(patterns) == 0 && len(f.ELF) == 0 {
			return nil, fmt.Errorf("-type selects Go types; name the kernel models as arguments instead (e.g. tk_core@v6.1)")
		}
		modelArchs := archs
		if len(modelArchs) == 0 {
			modelArchs = structs.Archs[:1]
		}
		for _, arch := range modelArchs {
			for _, name := range models {
				o, err := structs.Object(name, arch)
				if err != nil {
					return nil, err
				}
				set.Objects = append(set.Objects, o)
				if structs.IsScenario(name) {
					continue
				}
				fset, files, src, err := structs.Source()
				if err != nil {
					return nil, err
				}
				set.Source[o.Layout] = &gosrc.Source{Fset: fset, Files: files, Src: src}
			}
		}
	}
	if len(patterns) > 0 {
		res, err := gosrc.Load(gosrc.Config{Archs: archs, Tags: tags, Types: types}, patterns)
		if err != nil && len(f.ELF) > 0 {
			// An argument beside -elf is a Go package pattern; the
			// user most likely meant a type of the file.
			return nil, fmt.Errorf("%s is no Go package: name the types of %s with -type, e.g. mglayout layout -elf %s -type %s",
				strings.Join(patterns, " "), f.ELF[0], f.ELF[0], patterns[0])
		}
		if err != nil {
			return nil, err
		}
		for _, note := range res.Notes {
			f.note(note)
		}
		for _, s := range res.Structs {
			if reason, ok := res.Ignored[s]; ok {
				f.note(s.Name + " skipped: //mglayout:ignore " + reason)
				continue
			}
			set.Objects = append(set.Objects, &sharing.Object{Layout: s, Paths: res.Paths[s], Placement: res.Placement[s]})
			if syn := res.Syntax[s]; syn != nil {
				set.Source[s] = &gosrc.Source{Fset: syn.Fset, Files: syn.Files, Src: readSources(syn)}
			}
		}
	}
	if err := f.loadELF(set); err != nil {
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
func (f *Config) Objects(args []string) ([]*sharing.Object, error) {
	set, err := f.Load(args)
	if err != nil {
		return nil, err
	}
	return set.Objects, nil
}

// sidecar reads -paths and -path into one sidecar; nil when neither is
// given.
func (f *Config) sidecar() (*access.Sidecar, error) {
	if f.PathsFile == "" && len(f.PathSpecs) == 0 {
		return nil, nil
	}
	sc := &access.Sidecar{}
	read := func(name string) error {
		data, err := os.ReadFile(name)
		if err != nil {
			return fmt.Errorf("paths file: %v", err)
		}
		more, err := access.ParseSidecar(name, strings.NewReader(string(data)))
		if err != nil {
			return fmt.Errorf("%v (see the README for the paths file format)", err)
		}
		if err := sc.Merge(more); err != nil {
			return err
		}
		return nil
	}
	switch {
	case slices.Contains(structs.Names(), f.PathsFile):
		sec, err := f.modelSection(f.PathsFile)
		if err != nil {
			return nil, err
		}
		sc.Sections = append(sc.Sections, sec)
	case f.PathsFile != "":
		if err := read(f.PathsFile); err != nil {
			return nil, err
		}
	}
	for i, spec := range f.PathSpecs {
		if name, ok := strings.CutPrefix(spec, "@"); ok {
			if err := read(name); err != nil {
				return nil, err
			}
			continue
		}
		if err := sc.AddPath(spec, fmt.Sprintf("-path #%d", i+1)); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// modelSection is -paths MODEL: the access paths of a built-in model, for
// the struct it describes as a kernel build's DWARF gives it, matched by
// member name.
func (f *Config) modelSection(model string) (*access.Section, error) {
	arch := structs.Archs[0]
	if archs := SplitList(f.Arch); len(archs) > 0 {
		arch = archs[0]
	}
	paths, err := structs.Paths(model, arch)
	if err != nil {
		return nil, err
	}
	sec := &access.Section{Pos: "-paths " + model, Model: model}
	for _, p := range paths {
		c := *p
		c.Pos = "-paths " + model
		sec.Paths = append(sec.Paths, &c)
	}
	return sec, nil
}

// missingMembers lists the members the paths name that a struct lacks,
// each resolved as access.Resolve resolves it (elements of arrays
// included).
func missingMembers(paths []*access.Path, s *layout.Struct) []string {
	var out []string
	for _, p := range paths {
		for _, a := range p.Accesses {
			one := &access.Path{Name: p.Name, Accesses: []access.Access{a}}
			if _, err := access.Resolve(one, s); err != nil && !slices.Contains(out, a.Member) {
				out = append(out, a.Member)
			}
		}
	}
	return out
}

// loadELF adds the structs of every -elf file, with the access paths the
// sidecar gives them, to set.
func (f *Config) loadELF(set *Set) error {
	if len(f.ELF) == 0 {
		if f.PathsFile != "" || len(f.PathSpecs) > 0 {
			return fmt.Errorf("-paths and -path give access paths to structs read with -elf; Go types declare theirs with //mglayout:path")
		}
		if f.Vars != "" {
			return fmt.Errorf("-var %s names variables of an -elf file; give the file with -elf FILE", f.Vars)
		}
		return nil
	}
	var all []*layout.Struct
	for _, name := range f.ELF {
		structs, err := f.readELF(name, SplitList(f.Types), SplitList(f.Vars))
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
		set.add(s, paths[s], true)
	}
	return nil
}

// readELF loads from one file the structs types names and those of the
// variables vars names (every struct when neither names any).
func (f *Config) readELF(name string, types, vars []string) ([]*layout.Struct, error) {
	archs := SplitList(f.Arch)
	if len(archs) > 1 {
		return nil, fmt.Errorf("-arch names one GOARCH with -elf (the file's); drop it or give one")
	}
	opts := elfdwarf.Options{Types: types, Vars: vars}
	if len(archs) == 1 {
		opts.Arch = archs[0]
	}
	structs, notes, err := elfdwarf.Load(name, opts)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		f.note(name + ": " + n)
	}
	return structs, nil
}

// elfPaths applies the sidecar to the structs: their access paths, and
// the alignment and padding it declares for them.
func (f *Config) elfPaths(structs []*layout.Struct) (map[*layout.Struct][]*access.Path, error) {
	sc, err := f.sidecar()
	if err != nil || sc == nil {
		return nil, err
	}
	unnamed := sc.Unnamed()
	if unnamed != nil && len(structs) != 1 {
		return nil, fmt.Errorf("the paths outside a [TypeName] section (%s) are for one struct, and -elf gave %d; put them under [TypeName] headers", unnamed.Pos, len(structs))
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
			if sec.Model != "" {
				if missing := missingMembers(sec.Paths, s); len(missing) > 0 {
					return nil, fmt.Errorf("-paths %s: %s lacks %s, which the model's paths name (give the paths of this struct in a paths file)", sec.Model, s.Name, strings.Join(missing, ", "))
				}
			}
			s.Align = max(s.Align, sec.Align)
			s.PaddedTo = max(s.PaddedTo, sec.Padded)
			for _, p := range sec.Paths {
				if i := slices.IndexFunc(out[s], func(q *access.Path) bool { return q.Name == p.Name }); i >= 0 {
					return nil, fmt.Errorf("%s: path %s is given twice for %s (first at %s)", p.Pos, p.Name, s.Name, out[s][i].Pos)
				}
				if _, err := access.Resolve(p, s); err != nil {
					return nil, fmt.Errorf("%s: %v", p.Pos, err)
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
func (f *Config) elfStruct(file, typ string) (*Set, error) {
	// typ names a struct, or a variable -var names (probe -elf F -var
	// tk_core tk_core); none, the variables of -var.
	var types, vars []string
	switch {
	case typ == "":
		vars = SplitList(f.Vars)
	case slices.Contains(SplitList(f.Vars), typ):
		vars = []string{typ}
	default:
		types = []string{typ}
	}
	structs, err := f.readELF(file, types, vars)
	if err != nil {
		return nil, err
	}
	if len(structs) != 1 {
		var names []string
		for _, s := range structs {
			names = append(names, s.Name)
		}
		return nil, fmt.Errorf("%s: %s names %d structs (%s); name one", file, typ, len(structs), strings.Join(names, ", "))
	}
	paths, err := f.elfPaths(structs)
	if err != nil {
		return nil, err
	}
	set := &Set{Source: map[*layout.Struct]*gosrc.Source{}}
	set.add(structs[0], paths[structs[0]], true)
	return set, nil
}

// elfObject loads one struct from one ELF file as an object for the
// analysis.
func (f *Config) elfObject(file, typ string) (*sharing.Object, error) {
	set, err := f.elfStruct(file, typ)
	if err != nil {
		return nil, err
	}
	return set.Objects[0], nil
}

// elfPair returns diff's OLD and NEW from -elf files: with two files and
// one -type, that type in each; with two files and two arguments, the
// first type in the first file and the second in the second; with one
// file, the two types the arguments name in it.
func (f *Config) ELFPair(args []string) ([2]*sharing.Object, error) {
	var sides [2]*sharing.Object
	var files, types [2]string
	switch {
	case len(f.ELF) == 2 && len(args) == 0:
		t, v := SplitList(f.Types), SplitList(f.Vars)
		switch {
		case len(t) == 1 && len(v) == 0:
			types = [2]string{t[0], t[0]}
		case len(t) == 0 && len(v) == 1:
			// The variable's struct in each (elfStruct with no type).
		default:
			return sides, fmt.Errorf("with two -elf files, name the struct to compare with one -type (e.g. -type tk_core_v6_1) or one -var (e.g. -var tk_core)")
		}
		files = [2]string{f.ELF[0], f.ELF[1]}
	case len(f.ELF) == 2 && len(args) == 2:
		files, types = [2]string{f.ELF[0], f.ELF[1]}, [2]string{args[0], args[1]}
	case len(f.ELF) == 1 && len(args) == 2:
		files, types = [2]string{f.ELF[0], f.ELF[0]}, [2]string{args[0], args[1]}
	default:
		return sides, fmt.Errorf("with -elf, diff takes two files and one -type (diff -elf old.o -elf new.o -type T), or one file and two struct names")
	}
	for i := range sides {
		o, err := f.elfObject(files[i], types[i])
		if err != nil {
			return sides, err
		}
		sides[i] = o
	}
	return sides, nil
}

// elfOne resolves an argument naming a struct of an -elf file: T when
// there is one file, FILE:T for any of them.
func (f *Config) elfOne(arg string) (*Set, error) {
	for _, file := range f.ELF {
		if typ, ok := strings.CutPrefix(arg, file+":"); ok {
			return f.elfStruct(file, typ)
		}
	}
	if len(f.ELF) != 1 {
		return nil, fmt.Errorf("%s: with several -elf files, name a struct as FILE:TYPE (e.g. %s:%s)", arg, f.ELF[0], arg)
	}
	return f.elfStruct(f.ELF[0], arg)
}

// one loads a single object: a model, a Go type written pattern.T, or a
// layout -json file holding one struct (or the one -type names); with -elf,
// a struct of an -elf file.
func (f *Config) One(arg string) (*sharing.Object, error) {
	if st, err := os.Stat(arg); len(f.ELF) == 0 && (err == nil && !st.IsDir() || strings.HasSuffix(arg, ".json")) {
		return f.fromJSONFile(arg)
	}
	set, err := f.LoadOne(arg)
	if err != nil {
		return nil, err
	}
	return set.Objects[0], nil
}

// loadOne loads the one layout a model name or a Go type pattern.T names,
// or with -elf a struct of an -elf file (T, or FILE:T).
func (f *Config) LoadOne(arg string) (*Set, error) {
	if len(f.ELF) > 0 {
		return f.elfOne(arg)
	}
	var args []string
	g := *f
	if strings.Contains(arg, "@") {
		args = []string{arg}
	} else {
		dot := strings.LastIndex(arg, ".")
		if dot <= 0 || dot == len(arg)-1 || strings.Contains(arg[dot:], "/") {
			return nil, fmt.Errorf("%s is not a model (NAME@VERSION), a Go type (import/path.T) or a layout -json file", arg)
		}
		args, g.Types = []string{arg[:dot]}, arg[dot+1:]
	}
	set, err := g.Load(args)
	if err != nil {
		return nil, err
	}
	if len(set.Objects) != 1 {
		return nil, fmt.Errorf("%s names %d layouts; name one (with -arch, pick one GOARCH)", arg, len(set.Objects))
	}
	return set, nil
}

// readJSONFile reads the objects of a layout -json file.
func readJSONFile(name string) ([]*sharing.Object, error) {
	file, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	objects, err := layoutjson.Read(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %v (write it with mglayout layout -json)", name, err)
	}
	return objects, nil
}

func (f *Config) fromJSONFile(name string) (*sharing.Object, error) {
	objects, err := readJSONFile(name)
	if err != nil {
		return nil, err
	}
	want := SplitList(f.Types)
	var names []string
	for _, o := range objects {
		s := o.Layout
		if len(want) == 0 && len(objects) == 1 || len(want) == 1 && (s.Name == want[0] || strings.HasSuffix(s.Name, "."+want[0])) {
			return o, nil
		}
		names = append(names, s.Name)
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("%s holds %d structs (%s); pick one with -type NAME", name, len(objects), strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("-type %s names no struct in %s (it holds %s)", f.Types, name, strings.Join(names, ", "))
}
