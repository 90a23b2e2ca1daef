package falsesharing

import (
	"fmt"
	"go/token"
	"go/types"
	"iter"
	"os"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/falsesharing/concurrency"
	"github.com/mglayout/mglayout/layout/gosrc"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
)

// config is what the flags ask for.
type config struct {
	archs []string
	lines []int64 // checked for every GOARCH instead of its own, sorted, each once
	tier  Tier    // the least evidence a finding needs to be reported
}

func parseConfig() (config, error) {
	var c config
	for _, a := range strings.Split(archFlag, ",") {
		if a = strings.TrimSpace(a); a != "" {
			if !knownArch(a) {
				return c, fmt.Errorf("-falsesharing.arch: unknown GOARCH %q (want one the gc toolchain supports, e.g. amd64,arm64)", a)
			}
			c.archs = append(c.archs, a)
		}
	}
	if len(c.archs) == 0 {
		c.archs = []string{buildArch()}
	}
	t, err := parseTier(evidenceFlag)
	if err != nil {
		return c, err
	}
	c.tier = t
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

func run(pass *analysis.Pass) (any, error) {
	cfg, err := parseConfig()
	if err != nil {
		return nil, err
	}
	dirs, err := gosrc.ParseDirectives(pass.Fset, pass.Files, pass.TypesInfo)
	if de, ok := err.(*gosrc.DirectiveError); ok {
		pass.Reportf(de.At, "%s", de.Msg)
		return &Result{}, nil
	} else if err != nil {
		return nil, err
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{pass: pass, cfg: cfg, dirs: dirs, in: in, found: map[string]*finding{}, reported: map[string]bool{}, tabled: map[types.Object]bool{}, standIns: map[*types.Named]standIn{},
		hot: pass.ResultOf[HotMembers].(*hot), result: &Result{}}

	for tn, named := range structTypes(pass.Pkg) {
		if d := dirs.Type(tn); d != nil && d.Ignore != "" || !c.alone(tn) || concurrency.TestDouble(tn.Name()) {
			continue // ignored, checked as part of its holders, or a test double
		}
		for _, arch := range cfg.archs {
			if err := c.checkType(tn, named, arch); err != nil {
				return nil, err
			}
		}
	}
	// A generic type is laid out as each instance the package creates.
	for _, inst := range c.instances() {
		if d := dirs.Type(inst.Origin().Obj()); d != nil && d.Ignore != "" {
			continue
		}
		for _, arch := range cfg.archs {
			if err := c.checkType(inst.Origin().Obj(), inst, arch); err != nil {
				return nil, err
			}
		}
	}
	for _, arch := range cfg.archs {
		if err := c.checkTables(arch); err != nil {
			return nil, err
		}
		if err := c.checkObjects(arch); err != nil {
			return nil, err
		}
		if err := c.checkGlobals(arch); err != nil {
			return nil, err
		}
		for _, inst := range c.instances() {
			if err := c.checkSliceMembers(inst.Origin().Obj(), inst.Underlying().(*types.Struct), arch); err != nil {
				return nil, err
			}
		}
	}
	c.checkComputedPadding()
	if err := c.checkOversizedPadding(); err != nil {
		return nil, err
	}
	c.reportAll()
	return c.result, nil
}

// checker holds one pass's state.
type checker struct {
	pass *analysis.Pass
	cfg  config
	dirs gosrc.Directives
	in   *inspector.Inspector
	// hot is what HotMembers found: the members written atomically, the
	// facts of imported types, the concurrency model.
	hot *hot
	// touched indexes who names which member, on first use.
	touched touchIndex
	// held is how the package holds its struct types (holders).
	held *gosrc.Holders
	// headPads are the FS3 head pads decided, per type and GOARCH.
	headPads map[headPadKey]headPadDecision
	// found collects findings across GOARCHes and line sizes, so that one
	// problem is reported once with every place it shows.
	found    map[string]*finding
	order    []string
	reported map[string]bool
	// elements memoises elementTypes.
	elements map[types.Object]bool
	// tabled holds the element types of tables reported under FS1.
	tabled map[types.Object]bool
	// insts memoises instances; standIns names its stand-ins.
	insts    []*types.Named
	standIns map[*types.Named]standIn
	// result is what the pass reports, as data.
	result *Result
	// lens holds, per GOARCH, the array lengths that differ there from
	// those of the GOARCH the package was type-checked for.
	lens map[string]map[*types.Array]int64
	// aloneTypes memoises alone, madeIn perItem.
	aloneTypes map[*types.TypeName]bool
	madeIn     map[types.Object]makeSites
}

func (c *checker) checkType(tn *types.TypeName, named *types.Named, arch string) error {
	d := c.dirs.Type(tn)
	var align int64
	if d != nil {
		align = d.Align
	}
	// A Go mirror of a C struct (//mglayout:model) names members as C
	// does, anonymous unions included.
	cnames := d != nil && d.Model != ""
	declared := d != nil && len(d.Paths) > 0
	uses := append(slices.Clone(c.hot.hotMembers(tn)), c.hot.memberFacts(named)...)
	uses = append(uses, c.hot.paddedMembers(named)...)
	uses = append(uses, c.ownedMemberShards(tn, named)...)
	name, note := types.TypeString(named, types.RelativeTo(c.pass.Pkg)), ""
	if si, ok := c.standIns[named]; ok {
		name, note = si.name, si.note
	}
	return c.checkObject(object{tn: tn, typ: named, name: name, note: note, align: align, cnames: cnames, declared: declared, uses: uses, placement: c.placementOf(tn)}, arch)
}

// object is what the analyzer lays out and checks: a struct type, or a
// synthetic struct standing for a slice's backing array or a package-level
// array.
type object struct {
	tn        types.Object // the type, or the variable of a package-level array
	typ       types.Type   // a struct type
	name      string
	note      string // what the layout assumes, said with its findings: a stand-in's type parameters
	align     int64  // declared alignment, 0 if none
	cnames    bool
	declared  bool     // the paths come from //mglayout:path
	uses      []string // members used through sync/atomic, and facts
	placement placement.Policy
	// pos, when set, is where findings about the object's members are
	// reported: the slice field or the variable.
	pos token.Pos
	// slice is set for a slice's backing array, whose elements the
	// model names "a[*]".
	slice bool
	// objects is set for a run of objects a loop allocates one by one.
	objects *objectsRun
	// vars is set for a run of package-level variables: the variable
	// each top-level member stands for.
	vars map[string]types.Object
}

// owner returns the object that the model knows a member of o by, and
// the member's path in it.
func (o object) owner(member string) types.Object {
	if o.vars != nil {
		top, _, _ := strings.Cut(member, ".")
		top, _, _ = strings.Cut(top, "[")
		return o.vars[top]
	}
	return o.tn
}

func (c *checker) checkObject(o object, arch string) error {
	b, err := c.builder(arch)
	if err != nil {
		return err
	}
	b.CNames = o.cnames
	s, err := b.Build(o.name, o.typ, o.align, o.note)
	if err != nil {
		return err
	}
	var paths []*access.Path
	if o.declared {
		paths = c.dirs.Type(o.tn).Paths
	} else {
		paths = gosrc.InferPaths(s, o.typ, c.dirs, o.uses)
	}
	if len(paths) == 0 {
		return nil
	}
	lines := c.cfg.linesFor(arch)

	policy := o.placement
	if o.align > 0 {
		policy = placement.Policy{placement.Declared}
	}
	a, err := sharing.Analyze([]*sharing.Object{{Layout: s, Paths: paths, Placement: policy}}, lines)
	if err != nil {
		// A declared path that names a missing member: say so once where
		// the type is declared.
		c.reportOnce(o.tn.Pos(), err.Error())
		return nil
	}
	oa := &a.Objects[0]
	for ci := range oa.Cases {
		cs := &oa.Cases[ci]
		for _, lp := range cs.FalsePairs() {
			c.consider(o, s, paths, arch, cs, oa, lp)
		}
		c.checkExposed(o, s, arch, cs, oa)
	}
	return nil
}

// builder returns a layout builder for arch, with the package's array
// lengths evaluated again for arch (gosrc.ArrayLens): whatever GOARCH
// the package was type-checked for, one check serves them all.
func (c *checker) builder(arch string) (*gosrc.Builder, error) {
	b, err := gosrc.NewBuilder(arch, layout.SourceGo, c.dirs)
	if err != nil {
		return nil, err
	}
	if c.lens == nil {
		c.lens = map[string]map[*types.Array]int64{}
	}
	if _, ok := c.lens[arch]; !ok {
		c.lens[arch] = gosrc.ArrayLens(c.pass.Files, c.pass.TypesInfo, arch)
	}
	b.Lens = c.lens[arch]
	return b, nil
}

// reportOnce reports a message at a position once, however many GOARCHes
// find it.
func (c *checker) reportOnce(pos token.Pos, msg string) {
	key := fmt.Sprint(pos, msg)
	if c.reported[key] {
		return
	}
	c.reported[key] = true
	c.pass.Reportf(pos, "%s", msg)
}

// instances returns the instances of the package's generic struct types
// that the package creates with concrete type arguments, in source
// order, each once, and for each generic struct type that it creates
// only in generic code (NewQueue[T]) its stand-in (gosrc.StandIn).
func (c *checker) instances() []*types.Named {
	if c.insts != nil {
		return c.insts
	}
	var out []*types.Named
	seen := map[string]bool{}
	type at struct {
		pos  token.Pos
		inst *types.Named
	}
	var all []at
	for id, inst := range c.pass.TypesInfo.Instances {
		n, ok := inst.Type.(*types.Named)
		if !ok || n.Origin().Obj().Pkg() != c.pass.Pkg || !gosrc.IsConcrete(n) {
			continue
		}
		if _, ok := n.Underlying().(*types.Struct); ok {
			all = append(all, at{id.Pos(), n})
		}
	}
	slices.SortFunc(all, func(a, b at) int { return int(a.pos - b.pos) })
	instantiated := map[types.Object]bool{}
	for _, a := range all {
		if key := types.TypeString(a.inst, nil); !seen[key] {
			seen[key] = true
			out = append(out, a.inst)
			instantiated[a.inst.Origin().Obj()] = true
		}
	}
	for _, origin := range genericStructs(c.pass.Pkg) {
		if instantiated[origin.Obj()] {
			continue
		}
		if inst, note := gosrc.StandIn(origin); inst != nil {
			out = append(out, inst)
			c.standIns[inst] = standIn{gosrc.StandInName(origin), note}
		}
	}
	c.insts = out
	return out
}

// standIn is how a stand-in instance is named, and what its layout
// assumes (gosrc.StandIn).
type standIn struct{ name, note string }

// genericStructs returns the package's generic struct types, in name
// order.
func genericStructs(pkg *types.Package) []*types.Named {
	var out []*types.Named
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
			if _, ok := named.Underlying().(*types.Struct); ok {
				out = append(out, named)
			}
		}
	}
	return out
}

// structTypes yields the package's named struct types that are not
// generic, in name order.
func structTypes(pkg *types.Package) iter.Seq2[*types.TypeName, *types.Named] {
	return func(yield func(*types.TypeName, *types.Named) bool) {
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 {
				continue
			}
			if _, ok := named.Underlying().(*types.Struct); ok && !yield(tn, named) {
				return
			}
		}
	}
}
