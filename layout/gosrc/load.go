package gosrc

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/placement"
)

// Config says what to load.
type Config struct {
	Dir   string   // directory to resolve patterns in; "" for the current one
	Archs []string // GOARCHes to size for; nil for the host's
	Tags  []string // build tags
	// Types selects struct types by name ("T" or "import/path.T"); nil
	// selects every struct type declared or instantiated in the packages.
	Types []string
}

// Result is what Load found.
type Result struct {
	Structs []*layout.Struct // for each GOARCH in order, sorted by name
	// Paths are each struct's access paths: those its //mglayout:path
	// directives declare, or else those inferred from its members.
	Paths map[*layout.Struct][]*access.Path
	// Placement holds where each struct's objects can start
	// (Holders.Policy): where its //mglayout:align directive says, or
	// where the allocator, the linker and the arrays of its package put
	// them.
	Placement map[*layout.Struct]placement.Policy
	// Ignored holds the structs marked //mglayout:ignore, with the reason.
	Ignored map[*layout.Struct]string
	// Syntax holds, per struct, the parsed files of its package, where
	// its declaration and those of its members' types are.
	Syntax map[*layout.Struct]*Syntax
	// Notes are things a user should know that are not errors, such as a
	// generic type that was skipped because nothing instantiates it.
	Notes []string
}

// Source is the Go source that declares a layout's types: the parsed
// files and their text, for writing declarations back (suggest).
type Source struct {
	Fset  *token.FileSet
	Files []*ast.File
	Src   map[string][]byte // file name → contents
}

// Syntax is a package's parsed files.
type Syntax struct {
	Fset  *token.FileSet
	Files []*ast.File
}

// Load loads the packages matching patterns once per GOARCH and returns the
// layout of their struct types. Missing packages and type errors are
// errors: a layout computed from a package that does not compile would be
// a guess.
func Load(cfg Config, patterns []string) (*Result, error) {
	archs := cfg.Archs
	if len(archs) == 0 {
		archs = []string{hostArch()}
	}
	res := &Result{Paths: map[*layout.Struct][]*access.Path{}, Placement: map[*layout.Struct]placement.Policy{}, Ignored: map[*layout.Struct]string{}, Syntax: map[*layout.Struct]*Syntax{}}
	wanted := map[string]bool{}
	for _, t := range cfg.Types {
		wanted[strings.ReplaceAll(t, ", ", ",")] = false
	}
	for _, arch := range archs {
		if types.SizesFor("gc", arch) == nil {
			return nil, fmt.Errorf("unknown GOARCH %q in -arch (see `go tool dist list` for the valid ones)", arch)
		}
		pkgs, err := loadArch(cfg, arch, patterns)
		if err != nil {
			return nil, err
		}
		for _, pkg := range pkgs {
			structs, notes, err := structsOf(pkg, arch, wanted, res)
			if err != nil {
				return nil, err
			}
			res.Structs = append(res.Structs, structs...)
			if arch == archs[0] {
				res.Notes = append(res.Notes, notes...)
			}
		}
	}
	var missing []string
	for t, found := range wanted {
		if !found {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, fmt.Errorf("no struct type %s in %s (list the types with `mglayout layout %s`)",
			strings.Join(missing, ", "), strings.Join(patterns, " "), strings.Join(patterns, " "))
	}
	return res, nil
}

func hostArch() string {
	if a := os.Getenv("GOARCH"); a != "" {
		return a
	}
	return runtime.GOARCH
}

func loadArch(cfg Config, arch string, patterns []string) ([]*packages.Package, error) {
	pcfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo | packages.NeedTypesSizes,
		Dir: cfg.Dir,
		Env: BuildEnv(arch),
	}
	if len(cfg.Tags) > 0 {
		pcfg.BuildFlags = []string{"-tags=" + strings.Join(cfg.Tags, ",")}
	}
	if cfg.Dir != "" {
		if _, err := os.Stat(cfg.Dir); err != nil {
			return nil, fmt.Errorf("directory %s: %v", cfg.Dir, err)
		}
	}
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		if len(pkgs) == 0 {
			if np := NoPackages(cfg.Dir, patterns); !strings.HasPrefix(np.Error(), "no Go packages") {
				return nil, np
			}
		}
		return nil, fmt.Errorf("loading %s: %v", strings.Join(patterns, " "), firstLine(err.Error()))
	}
	if len(pkgs) == 0 {
		return nil, NoPackages(cfg.Dir, patterns)
	}
	for _, pkg := range pkgs {
		if len(pkg.Errors) > 0 {
			return nil, PackageError(pkg, arch)
		}
	}
	slices.SortFunc(pkgs, func(a, b *packages.Package) int { return cmp.Compare(a.PkgPath, b.PkgPath) })
	return pkgs, nil
}

// PackageError turns a package's first error into one line that names the
// package and what to do.
func PackageError(pkg *packages.Package, arch string) error {
	if arch == "" {
		arch = hostArch()
	}
	// The go command reports a compile error as a list error too, after a
	// "# package" line; the type checker's own report has the position.
	e := pkg.Errors[0]
	for _, te := range pkg.Errors {
		if te.Kind == packages.TypeError {
			e = te
			break
		}
	}
	name := pkg.PkgPath
	if name == "" {
		name = pkg.ID
	}
	msg := firstLine(e.Msg)
	switch e.Kind {
	case packages.TypeError:
		return fmt.Errorf("package %s does not type-check for GOARCH=%s: %s: %s (fix it so that `go build` succeeds)", name, arch, relPos(e.Pos), msg)
	case packages.ListError:
		hint := "check the import path or pattern"
		if strings.Contains(msg, "build constraints exclude all Go files") {
			hint = "none of its files builds for GOARCH=" + arch + " with these tags: files that import \"C\" need CGO_ENABLED=1, others -tags or another GOOS/GOARCH"
		}
		return fmt.Errorf("package %s: %s (%s)", name, msg, hint)
	}
	if e.Pos != "" && e.Pos != "-" {
		msg = relPos(e.Pos) + ": " + msg
	}
	return fmt.Errorf("package %s: %s (fix it so that `go build` succeeds)", name, msg)
}

// firstLine returns the first line of a go command message, without the
// "; to add it:" that announces a suggestion on the next line.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSuffix(s, "; to add it:")
}

// relPos shortens an absolute file position to one relative to the working
// directory, as the go command prints it.
func relPos(pos string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(pos) {
		return pos
	}
	if rel, err := filepath.Rel(wd, pos); err == nil && !strings.HasPrefix(rel, "..") {
		return "./" + rel
	}
	return pos
}

// structsOf returns the layouts of the struct types declared in pkg and of
// the generic struct types it instantiates.
func structsOf(pkg *packages.Package, arch string, wanted map[string]bool, res *Result) ([]*layout.Struct, []string, error) {
	dirs, err := ParseDirectives(pkg.Fset, pkg.Syntax, pkg.TypesInfo)
	if de, ok := err.(*DirectiveError); ok {
		return nil, nil, fmt.Errorf("%s: %s", relPos(de.Pos.String()), de.Msg)
	} else if err != nil {
		return nil, nil, err
	}
	b, err := NewBuilder(arch, layout.SourceGo, dirs)
	if err != nil {
		return nil, nil, err
	}
	b.Qualifier = func(p *types.Package) string {
		if p == pkg.Types {
			return ""
		}
		return p.Name()
	}
	// Type arguments are written without a space after the comma, as
	// reflect and the linker's DWARF write them.
	fullName := func(t types.Type) string {
		return strings.ReplaceAll(types.TypeString(t, (*types.Package).Path), ", ", ",")
	}
	selected := func(full, short string) bool {
		if len(wanted) == 0 {
			return true
		}
		for _, name := range []string{full, short} {
			// go/types writes type arguments with ", "; users type them
			// with or without the space.
			name = strings.ReplaceAll(name, ", ", ",")
			if _, ok := wanted[name]; ok {
				wanted[name] = true
				return true
			}
		}
		return false
	}

	var structs []*layout.Struct
	var notes []string
	atomics := AtomicUses(pkg.Syntax, pkg.TypesInfo)
	holders := NewHolders(pkg.Types, pkg.TypesInfo)
	syntax := &Syntax{Fset: pkg.Fset, Files: pkg.Syntax}
	add := func(t *types.Named, full, short, note string) error {
		if !selected(full, short) {
			return nil
		}
		d := dirs.Type(t.Origin().Obj())
		var align int64
		if d != nil {
			align = d.Align
		}
		// A Go mirror of a C struct (//mglayout:model) names members
		// as C does, anonymous unions included, as its paths do.
		b.CNames = d != nil && d.Model != ""
		doc := relPos(pkg.Fset.Position(t.Obj().Pos()).String())
		if note != "" {
			doc += ", " + note
		}
		s, err := b.Build(full, t, align, doc)
		if err != nil {
			return err
		}
		switch {
		case d != nil && len(d.Paths) > 0:
			for _, p := range d.Paths {
				if strings.HasPrefix(p.Doc, "declared at ") {
					p.Doc = "declared at " + relPos(p.Pos)
				}
				p.Pos = relPos(p.Pos)
				if _, err := access.Resolve(p, s); err != nil {
					return fmt.Errorf("%s: %v", p.Pos, err)
				}
			}
			res.Paths[s] = d.Paths
		default:
			res.Paths[s] = InferPaths(s, t, dirs, atomics[t.Origin().Obj()])
		}
		res.Placement[s] = holders.Policy(t.Obj(), align > 0)
		if d != nil {
			if d.Ignore != "" {
				res.Ignored[s] = d.Ignore
			}
		}
		res.Syntax[s] = syntax
		structs = append(structs, s)
		return nil
	}

	scope := pkg.Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		if _, ok := named.Underlying().(*types.Struct); !ok {
			continue
		}
		if named.TypeParams().Len() > 0 {
			continue // laid out as its instances, below
		}
		if err := add(named, fullName(named), name, ""); err != nil {
			return nil, nil, err
		}
	}

	// Instantiated generic structs, each once, in a stable order.
	seen := map[string]*types.Named{}
	instantiated := map[*types.TypeName]bool{}
	for _, inst := range pkg.TypesInfo.Instances {
		named, ok := inst.Type.(*types.Named)
		if !ok || !IsConcrete(named) || opaque(named) {
			continue
		}
		if _, ok := named.Underlying().(*types.Struct); ok {
			seen[fullName(named)] = named
			instantiated[named.Origin().Obj()] = true
		}
	}
	for _, full := range slices.Sorted(maps.Keys(seen)) {
		named := seen[full]
		if err := add(named, full, types.TypeString(named, b.Qualifier), ""); err != nil {
			return nil, nil, err
		}
	}
	// A generic type the package instantiates only in generic code is
	// laid out as its stand-in.
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || instantiated[tn] {
			continue
		}
		origin, ok := tn.Type().(*types.Named)
		if !ok || origin.TypeParams().Len() == 0 {
			continue
		}
		if _, ok := origin.Underlying().(*types.Struct); !ok {
			continue
		}
		inst, note := StandIn(origin)
		if inst == nil {
			continue
		}
		short := StandInName(origin)
		if err := add(inst, pkg.PkgPath+"."+short, short, note); err != nil {
			return nil, nil, err
		}
	}
	return structs, notes, nil
}

// IsConcrete reports whether no type argument of t mentions a type
// parameter, as instantiations inside a generic function's body do.
func IsConcrete(t *types.Named) bool {
	for arg := range t.TypeArgs().Types() {
		if hasTypeParam(arg) {
			return false
		}
	}
	return true
}

func hasTypeParam(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		return !IsConcrete(t)
	case *types.Pointer:
		return hasTypeParam(t.Elem())
	case *types.Slice:
		return hasTypeParam(t.Elem())
	case *types.Array:
		return hasTypeParam(t.Elem())
	case *types.Chan:
		return hasTypeParam(t.Elem())
	case *types.Map:
		return hasTypeParam(t.Key()) || hasTypeParam(t.Elem())
	}
	return false
}
