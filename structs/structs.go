package structs

import (
	"embed"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"sync"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/gosrc"
)

//go:embed kernel/*.go
var mirrors embed.FS

// Archs are the GOARCHes for which the models are known to hold: 64-bit
// kernels whose SMP_CACHE_BYTES is 64, which ____cacheline_aligned means.
// (ppc64 and s390x have 128- and 256-byte kernel lines, 32-bit kernels
// other sizes for u64; the models do not cover them.)
var Archs = []string{"amd64", "arm64"}

// model is one declaration marked //mglayout:model.
type model struct {
	name   string
	obj    types.Object
	align  int64
	padded int64 // //mglayout:padded
	doc    string
	paths  []*access.Path // the //mglayout:path directives, in order
}

type parsed struct {
	models []model
	dirs   gosrc.Directives
}

// parse type-checks the mirrors once per GOARCH.
var parse = sync.OnceValues(func() (map[string]*parsed, error) {
	fset := token.NewFileSet()
	entries, err := mirrors.ReadDir("kernel")
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, e := range entries {
		src, err := mirrors.ReadFile("kernel/" + e.Name())
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, "kernel/"+e.Name(), src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	byArch := map[string]*parsed{}
	for _, arch := range Archs {
		conf := types.Config{Sizes: types.SizesFor("gc", arch)}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
		if _, err := conf.Check("kernel", fset, files, info); err != nil {
			return nil, err
		}
		dirs, err := gosrc.ParseDirectives(fset, files, info)
		if err != nil {
			return nil, err
		}
		p := &parsed{dirs: dirs}
		docs := declDocs(files, info)
		for obj, d := range dirs.Types {
			if d.Model != "" {
				p.models = append(p.models, model{name: d.Model, obj: obj, align: d.Align, padded: d.Padded, doc: docs[obj], paths: d.Paths})
			}
		}
		slices.SortFunc(p.models, func(a, b model) int { return strings.Compare(a.name, b.name) })
		byArch[arch] = p
	}
	return byArch, nil
})

// declDocs returns the doc comment of each declared object, without
// directives.
func declDocs(files []*ast.File, info *types.Info) map[types.Object]string {
	docs := map[types.Object]string{}
	for _, f := range files {
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gen.Specs {
				var ident *ast.Ident
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					ident = spec.Name
				case *ast.ValueSpec:
					ident = spec.Names[0]
				}
				if ident != nil && gen.Doc != nil {
					docs[info.Defs[ident]] = strings.TrimSpace(gen.Doc.Text())
				}
			}
		}
	}
	return docs
}

// Names returns the names of the built-in models, sorted.
func Names() []string {
	byArch, err := parse()
	if err != nil {
		panic(err) // the mirrors are compiled into the binary: this cannot fail
	}
	var names []string
	for _, m := range byArch[Archs[0]].models {
		names = append(names, m.name)
	}
	return names
}

// Lookup returns the layout of the named model for arch.
func Lookup(name, arch string) (*layout.Struct, error) {
	byArch, err := parse()
	if err != nil {
		panic(err)
	}
	p, ok := byArch[arch]
	if !ok {
		return nil, fmt.Errorf("the kernel models are checked for %s only, not GOARCH %q (drop -arch or use one of those)", strings.Join(Archs, ", "), arch)
	}
	for _, m := range p.models {
		if m.name != name {
			continue
		}
		b, err := gosrc.NewBuilder(arch, layout.SourceKernel, p.dirs)
		if err != nil {
			return nil, err
		}
		b.CNames = true
		s, err := b.Build(m.name, m.obj.Type(), m.align, m.doc)
		if err != nil {
			return nil, err
		}
		s.PaddedTo = max(s.PaddedTo, m.padded)
		return s, nil
	}
	return nil, fmt.Errorf("unknown model %q (the built-in models are %s; the scenarios %s)", name, strings.Join(Names(), ", "), strings.Join(ScenarioNames(), ", "))
}
