package falsesharing

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/gosrc"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
)

// config is what the flags ask for.
type config struct {
	archs []string
	lines []int64 // checked for every GOARCH, besides its own
}

func parseConfig() (config, error) {
	var c config
	for _, a := range strings.Split(archFlag, ",") {
		if a = strings.TrimSpace(a); a != "" {
			if _, ok := lineSize[a]; !ok {
				return c, fmt.Errorf("-falsesharing.arch: unknown GOARCH %q (known: %s)", a, strings.Join(slices.Sorted(mapKeys(lineSize)), ", "))
			}
			c.archs = append(c.archs, a)
		}
	}
	if len(c.archs) == 0 {
		c.archs = []string{buildArch()}
	}
	if linesFlag != "" {
		lines, err := layout.ParseLineSizes(linesFlag)
		if err != nil {
			return c, fmt.Errorf("-falsesharing.lines: %v", err)
		}
		c.lines = lines
	}
	return c, nil
}

// buildArch is the GOARCH being analysed: go vet sets GOARCH for the
// tool when cross-checking; otherwise it is the host's.
func buildArch() string {
	if a := os.Getenv("GOARCH"); a != "" {
		return a
	}
	return runtime.GOARCH
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func run(pass *analysis.Pass) (any, error) {
	cfg, err := parseConfig()
	if err != nil {
		return nil, err
	}
	dirs, err := gosrc.ParseDirectives(pass.Fset, pass.Files, pass.TypesInfo)
	if de, ok := err.(*gosrc.DirectiveError); ok {
		pass.Reportf(de.At, "%s", de.Msg)
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{pass: pass, cfg: cfg, dirs: dirs, ev: collectEvidence(pass.TypesInfo, in),
		atomics: gosrc.AtomicUses(pass.Files, pass.TypesInfo), found: map[string]*finding{}}

	scope := pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		if _, ok := named.Underlying().(*types.Struct); !ok {
			continue
		}
		c.exportFact(tn, named)
		if d := dirs.Type(tn); d != nil && d.Ignore != "" {
			continue
		}
		for _, arch := range cfg.archs {
			if err := c.checkType(tn, named, arch); err != nil {
				return nil, err
			}
		}
	}
	c.checkComputedPadding()
	c.report()
	return nil, nil
}

// checker holds one pass's state.
type checker struct {
	pass    *analysis.Pass
	cfg     config
	dirs    gosrc.Directives
	ev      *evidence
	atomics map[*types.TypeName][]string
	// found collects findings across GOARCHes and line sizes, so that one
	// problem is reported once with every place it shows.
	found map[string]*finding
	order []string
}

// exportFact records the hot members of an exported struct type for
// packages that use it as an array element.
func (c *checker) exportFact(tn *types.TypeName, named *types.Named) {
	if !tn.Exported() {
		return
	}
	members := slices.Clone(c.atomics[tn])
	for path, v := range gosrc.MemberVars(named) {
		if d := c.dirs.Field(v); d != nil && d.Hot {
			members = append(members, path)
		}
	}
	if len(members) > 0 {
		slices.Sort(members)
		c.pass.ExportObjectFact(tn, &hotFact{Members: slices.Compact(members)})
	}
}

// elementFacts turns the hot members that facts record for the imported
// element types of a type's arrays into member paths of the type:
// shards[].n for shards [8]pkg.Shard whose fact says n.
func (c *checker) elementFacts(named *types.Named) []string {
	var out []string
	for path, v := range gosrc.MemberVars(named) {
		a, ok := v.Type().Underlying().(*types.Array)
		if !ok {
			continue
		}
		en, ok := types.Unalias(a.Elem()).(*types.Named)
		if !ok || en.Obj().Pkg() == c.pass.Pkg {
			continue
		}
		var fact hotFact
		if c.pass.ImportObjectFact(en.Obj(), &fact) {
			for _, m := range fact.Members {
				out = append(out, path+"[]."+m)
			}
		}
	}
	return out
}

func (c *checker) checkType(tn *types.TypeName, named *types.Named, arch string) error {
	b, err := gosrc.NewBuilder(arch, layout.SourceGo, c.dirs)
	if err != nil {
		return err
	}
	d := c.dirs.Type(tn)
	var align int64
	if d != nil {
		align = d.Align
	}
	s, err := b.Build(tn.Name(), named, align, "")
	if err != nil {
		return err
	}
	declared := d != nil && len(d.Paths) > 0
	var paths []*access.Path
	if declared {
		paths = d.Paths
	} else {
		uses := append(slices.Clone(c.atomics[tn]), c.elementFacts(named)...)
		paths = gosrc.InferPaths(s, named, c.dirs, uses)
	}
	if len(paths) == 0 {
		return nil
	}
	lines := slices.Clone(c.cfg.lines)
	lines = append(lines, lineSize[arch])
	slices.Sort(lines)
	lines = slices.Compact(lines)

	phases := func(line int64) ([]int64, string) {
		if align > 0 {
			p, _ := placement.Phases(s, line, placement.Declared)
			return p.Phases, p.Reason
		}
		var all []int64
		var reasons []string
		for _, ctx := range []placement.Context{placement.Heap, placement.Global} {
			p, err := placement.Phases(s, line, ctx)
			if err != nil {
				return s.Phases(line), err.Error()
			}
			all = append(all, p.Phases...)
			reasons = append(reasons, ctx.String()+": "+p.Reason)
		}
		slices.Sort(all)
		return slices.Compact(all), strings.Join(reasons, "; ")
	}
	a, err := sharing.Analyze([]*sharing.Object{{Layout: s, Paths: paths, Phases: phases}}, lines)
	if err != nil {
		// A declared path that names a missing member: say so where the
		// type is declared.
		c.pass.Reportf(tn.Pos(), "%v", err)
		return nil
	}
	oa := &a.Objects[0]
	for ci := range oa.Cases {
		cs := &oa.Cases[ci]
		for _, lp := range cs.FalsePairs() {
			c.consider(tn, named, s, arch, cs, oa, lp, declared)
		}
	}
	return nil
}

// consider turns a false-sharing pair into a finding when there is
// evidence for it.
func (c *checker) consider(tn *types.TypeName, named *types.Named, s *layout.Struct, arch string, cs *sharing.Case, oa *sharing.ObjectAnalysis, lp sharing.LinePair, declared bool) {
	w, o := lp.Writer, lp.Other
	// Shards of one array meeting on a line: FS1, keyed by the array.
	if wa, _, ok := cutIndex(w); ok {
		if oArr, _, ok := cutIndex(o); ok && oArr == wa {
			c.add(tn, s, arch, cs, oa, finding{rule: ShardStride, key: wa, a: wa, b: wa})
			return
		}
	}
	if declared {
		c.add(tn, s, arch, cs, oa, finding{rule: Neighbour, key: w + "|" + o, a: w, b: o, why: "as the //mglayout:path directives declare"})
		return
	}
	// Inferred paths are named after the hot member they write.
	hotWriters := c.ev.writersOf(tn, baseMember(w))
	if o != "readers" {
		other := c.ev.writersOf(tn, baseMember(o))
		if independent(hotWriters, other) {
			a, b := orderedPair(s, baseMember(w), baseMember(o))
			c.add(tn, s, arch, cs, oa, finding{rule: Neighbour, key: a + "|" + b, a: a, b: b,
				why: fmt.Sprintf("%s and %s are written by different functions", a, b)})
		}
		return
	}
	for _, m := range lp.Members {
		if u := readsWithout(c.ev.readersOf(tn, m), hotWriters); u != nil && len(hotWriters) > 0 {
			a, b := orderedPair(s, baseMember(w), m)
			c.add(tn, s, arch, cs, oa, finding{rule: Neighbour, key: a + "|" + b, a: a, b: b,
				why: fmt.Sprintf("%s reads %s without writing %s", funcName(u), m, baseMember(w))})
		}
	}
}

// cutIndex splits "shards[3]" (or "shards[3].n") into "shards" and 3.
func cutIndex(path string) (string, string, bool) {
	base, rest, ok := strings.Cut(path, "[")
	return base, rest, ok
}

// baseMember strips an element's index: shards[3].n → shards[].n is not a
// member path of the layout, so the evidence is looked up for the array.
func baseMember(path string) string {
	base, _, _ := strings.Cut(path, "[")
	return base
}

// orderedPair returns the two members in offset order.
func orderedPair(s *layout.Struct, a, b string) (string, string) {
	fa, fb := s.Field(a), s.Field(b)
	if fa != nil && fb != nil && fb.Offset < fa.Offset {
		return b, a
	}
	return a, b
}

func funcName(u ast.Node) string {
	switch f := u.(type) {
	case *ast.FuncDecl:
		if f.Recv != nil && len(f.Recv.List) > 0 {
			return fmt.Sprintf("method %s", f.Name.Name)
		}
		return f.Name.Name
	}
	return "a function literal"
}
