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
	"github.com/mglayout/mglayout/layout/gosrc"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
)

// config is what the flags ask for.
type config struct {
	archs []string
	lines []int64 // checked for every GOARCH, besides its own
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
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{pass: pass, cfg: cfg, dirs: dirs, in: in, found: map[string]*finding{}, reported: map[string]bool{}, tabled: map[types.Object]bool{},
		hot: pass.ResultOf[HotMembers].(*hot)}

	for tn, named := range structTypes(pass.Pkg) {
		if d := dirs.Type(tn); d != nil && d.Ignore != "" {
			continue
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
	c.report()
	return nil, nil
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
	// globals are the types that package-level variables hold.
	globals map[types.Object]bool
	// found collects findings across GOARCHes and line sizes, so that one
	// problem is reported once with every place it shows.
	found    map[string]*finding
	order    []string
	reported map[string]bool
	// elements memoises elementTypes, atomicVars atomicGlobals.
	elements   map[types.Object]bool
	atomicVars map[*types.Var]bool
	// tabled holds the element types of tables reported under FS1.
	tabled map[types.Object]bool
}

// elementUses returns the members of an element type that are used
// through sync/atomic or that facts mark hot, as paths under prefix.
func (c *checker) elementUses(elem types.Type, prefix string) []string {
	var out []string
	for _, m := range c.hot.paddedMembers(elem) {
		out = append(out, prefix+"."+m)
	}
	if n, ok := types.Unalias(elem).(*types.Named); ok && !c.hot.keptWhole(n) {
		for _, m := range c.hot.hotMembers(n.Obj()) {
			out = append(out, prefix+"."+m)
		}
		if n.Obj().Pkg() != c.pass.Pkg {
			if fact, ok := c.hot.fact(n.Obj()); ok {
				for _, m := range fact.Members {
					out = append(out, prefix+"."+m)
				}
			}
		}
	}
	for _, m := range c.hot.memberFacts(types.NewStruct([]*types.Var{types.NewField(token.NoPos, c.pass.Pkg, "e", elem, false)}, nil)) {
		out = append(out, prefix+strings.TrimPrefix(m, "e"))
	}
	return out
}

// shardElements is how many elements stand for a slice's backing array:
// enough for the neighbours of one element at any line size up to 4096
// bytes, when elements are 64 bytes or more, and never so many that the
// analysis grows large.
const shardElements = 16

// checkTables checks the tables whose elements live outside any struct
// type: the backing arrays of slice members, and package-level arrays and
// slices. Each is checked as a struct holding the array, placed where the
// allocator or the linker puts it.
func (c *checker) checkTables(arch string) error {
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		switch obj := obj.(type) {
		case *types.Var:
			if err := c.checkTable(obj, obj, obj.Type(), arch); err != nil {
				return err
			}
		case *types.TypeName:
			if obj.IsAlias() {
				continue
			}
			if d := c.dirs.Type(obj); d != nil && d.Ignore != "" {
				continue
			}
			// A named slice type is a table of its own: type
			// stripes []sync.RWMutex.
			if _, ok := obj.Type().Underlying().(*types.Slice); ok {
				v := types.NewVar(obj.Pos(), c.pass.Pkg, obj.Name(), obj.Type())
				if err := c.checkTable(obj, v, obj.Type(), arch); err != nil {
					return err
				}
				continue
			}
			st, ok := obj.Type().Underlying().(*types.Struct)
			if !ok {
				continue
			}
			if n, ok := obj.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
				continue // a generic type's fields have no size until instantiated
			}
			if err := c.checkSliceMembers(obj, st, arch); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkSliceMembers checks the backing arrays of a struct type's slice
// members (of an instance of a generic type, with its type arguments).
func (c *checker) checkSliceMembers(obj *types.TypeName, st *types.Struct, arch string) error {
	for i := range st.NumFields() {
		f := st.Field(i)
		if _, ok := f.Type().Underlying().(*types.Slice); !ok {
			continue
		}
		if d := c.dirs.Field(f.Origin()); d != nil && (d.Ignore != "" || d.Cold) {
			continue
		}
		if err := c.checkTable(obj, f, f.Type(), arch); err != nil {
			return err
		}
	}
	return nil
}

// checkTable checks one slice or package-level array v of type t.
func (c *checker) checkTable(owner types.Object, v *types.Var, t types.Type, arch string) error {
	var arr *types.Array
	place := func(s *layout.Struct, line int64) ([]int64, string) {
		return s.Phases(line), "a slice's backing array, at any multiple of its elements' alignment"
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		arr = types.NewArray(u.Elem(), shardElements)
	case *types.Array:
		if _, isVar := owner.(*types.Var); !isVar {
			return nil // arrays inside struct types are checked with the type
		}
		arr = u
		place = func(s *layout.Struct, line int64) ([]int64, string) {
			p, err := placement.Phases(s, line, placement.Global)
			if err != nil {
				return s.Phases(line), err.Error()
			}
			return p.Phases, p.Reason
		}
	default:
		return nil
	}
	if _, ok := arr.Elem().Underlying().(*types.Struct); !ok && !concurrentElem(arr.Elem()) {
		return nil
	}
	holder := types.NewStruct([]*types.Var{types.NewField(v.Pos(), c.pass.Pkg, v.Name(), arr, false)}, nil)
	_, slice := t.Underlying().(*types.Slice)
	uses := c.elementUses(arr.Elem(), v.Name()+"[]")
	if len(uses) == 0 {
		uses = c.ownedShards(owner, v.Name(), arr.Elem())
	}
	return c.checkObject(object{tn: owner, typ: holder, name: v.Name(), uses: uses,
		placement: place, pos: v.Pos(), slice: slice}, arch)
}

// ownedShards returns the members of a table's elements that goroutines
// write in an element of their own (one per CPU, or one goroutine per
// element): shards written with plain stores, which share lines as
// atomics do. Only a package that starts goroutines has them, and only
// then is the model asked.
func (c *checker) ownedShards(owner types.Object, table string, elem types.Type) []string {
	if !c.hot.startsGoroutines() {
		return nil
	}
	m := c.model()
	if m == nil {
		return nil
	}
	var out []string
	for _, p := range m.StripedWrites(owner, table+"[]") {
		if p != table+"[]" {
			out = append(out, p)
			continue
		}
		// Whole elements stored: each of their members is written.
		if st, ok := elem.Underlying().(*types.Struct); ok {
			for i := range st.NumFields() {
				out = append(out, p+"."+st.Field(i).Name())
			}
		}
	}
	return out
}

// concurrentElem reports whether array elements of type t are themselves
// accessed concurrently (atomics, mutexes).
func concurrentElem(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return n.Obj().Pkg().Path() == "sync/atomic" || isMutex(t)
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
	return c.checkObject(object{tn: tn, typ: named, name: types.TypeString(named, types.RelativeTo(c.pass.Pkg)), align: align, cnames: cnames, declared: declared, uses: uses, placement: c.placementOf(tn)}, arch)
}

// object is what the analyzer lays out and checks: a struct type, or a
// synthetic struct standing for a slice's backing array or a package-level
// array.
type object struct {
	tn        types.Object // the type, or the variable of a package-level array
	typ       types.Type   // a struct type
	name      string
	align     int64 // declared alignment, 0 if none
	cnames    bool
	declared  bool     // the paths come from //mglayout:path
	uses      []string // members used through sync/atomic, and facts
	placement func(*layout.Struct, int64) ([]int64, string)
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
	b, err := gosrc.NewBuilder(arch, layout.SourceGo, c.dirs)
	if err != nil {
		return err
	}
	b.CNames = o.cnames
	s, err := b.Build(o.name, o.typ, o.align, "")
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
	lines := slices.Clone(c.cfg.lines)
	lines = append(lines, lineSize(arch))
	slices.Sort(lines)
	lines = slices.Compact(lines)

	phases := func(line int64) ([]int64, string) {
		if o.align > 0 {
			p, _ := placement.Phases(s, line, placement.Declared)
			return p.Phases, p.Reason
		}
		return o.placement(s, line)
	}
	a, err := sharing.Analyze([]*sharing.Object{{Layout: s, Paths: paths, Phases: phases}}, lines)
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

// placementOf returns where a struct type's objects can start: where
// the allocator puts them, where the linker does too when a
// package-level variable of the package holds one, and anywhere its
// alignment allows when it is an array's or slice's element.
func (c *checker) placementOf(tn *types.TypeName) func(*layout.Struct, int64) ([]int64, string) {
	ctxs := []placement.Context{placement.Heap}
	if c.hasGlobal(tn) {
		ctxs = append(ctxs, placement.Global)
	}
	element := c.elementTypes()[tn]
	return func(s *layout.Struct, line int64) ([]int64, string) {
		var all []int64
		var reasons []string
		if element {
			all = s.Phases(line)
			reasons = append(reasons, "an element of an array or slice: at any multiple of its alignment")
		}
		for _, ctx := range ctxs {
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
}

// hasGlobal reports whether a package-level variable holds a value of
// the type, directly or as an array's elements.
func (c *checker) hasGlobal(tn *types.TypeName) bool {
	if c.globals == nil {
		c.globals = map[types.Object]bool{}
		scope := c.pass.Pkg.Scope()
		for _, name := range scope.Names() {
			v, ok := scope.Lookup(name).(*types.Var)
			if !ok {
				continue
			}
			t := v.Type()
			for {
				a, ok := t.Underlying().(*types.Array)
				if !ok {
					break
				}
				t = a.Elem()
			}
			if n, ok := types.Unalias(t).(*types.Named); ok {
				c.globals[n.Origin().Obj()] = true
			}
		}
	}
	return c.globals[tn]
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

// consider turns a false-sharing pair into a finding when there is
// evidence for it.
func (c *checker) consider(o object, s *layout.Struct, paths []*access.Path, arch string, cs *sharing.Case, oa *sharing.ObjectAnalysis, lp sharing.LinePair) {
	w, other := lp.Writer, lp.Other
	add := func(f finding, partner, why string) {
		f.pos = o.pos
		c.add(o.tn, s, arch, cs, oa, f, partner, why)
	}
	// Shards of one array meeting on a line: FS1, keyed by the array.
	if wa, _, ok := cutIndex(w); ok {
		if oArr, _, ok := cutIndex(other); ok && oArr == wa {
			if c.insideOwnType(o, wa, wa) {
				return // a table of a member's own type is checked with it
			}
			if o.objects != nil {
				if v := c.judgeObjects(o); v.tier > 0 {
					add(finding{rule: ShardStride, key: wa, a: wa, b: wa, hot: wa, tier: v.tier, objects: o.objects}, "", v.why)
				}
				return
			}
			v := c.judgeShards(o, wa, o.slice, elementIndex(w), elementIndex(other))
			// Elements padded to a whole number of lines meet only
			// where the table starts mid-line.
			padded := false
			if arr := s.Field(wa); elementPadded(arr) {
				v = verdict{tier: Declared, why: "the elements are padded to be a line apart"}
				padded = arr.Size/max(arr.Len, 1)%cs.Line == 0
			}
			if v.tier > 0 {
				add(finding{rule: ShardStride, key: wa, a: wa, b: wa, hot: wa, tier: v.tier, paddedToLine: padded}, "", v.why)
				if arr, ok := c.hot.memberVars(o.typ)[wa]; ok && v.tier >= c.cfg.tier {
					if n, ok := types.Unalias(elemOf(arr.Type())).(*types.Named); ok {
						c.tabled[n.Origin().Obj()] = true
					}
				}
			}
			return
		}
	}
	if o.declared {
		// Declared paths name functions; the finding names the members
		// they meet through.
		wm := membersOnLine(s, paths, w, lp.Line, cs.Line, cs.Phase, true)
		if len(wm) == 0 || len(lp.Members) == 0 {
			return
		}
		a, _ := orderedPair(s, wm[0], lp.Members[0])
		partner := lp.Members[0]
		if a != wm[0] {
			partner = wm[0]
		}
		c.addPair(o, s, add, a, partner, verdict{tier: Declared,
			why: fmt.Sprintf("the //mglayout:path directives declare that %s writes %s and %s touches %s without writing it", w, wm[0], other, lp.Members[0])})
		return
	}
	// Inferred paths are named after the hot member they write; the
	// other side is another hot member, or the members read beside it.
	hot := baseMember(w)
	partners := lp.Members
	if other != "readers" {
		partners = []string{baseMember(other)}
	}
	for _, m := range partners {
		c.addPair(o, s, add, hot, m, c.judgePair(o, hot, m))
	}
}

// addPair adds a judged pair to the finding of its hot member, or, for
// two hot members, of the earlier one. Deliberate padding between the
// two declares that they are used apart.
func (c *checker) addPair(o object, s *layout.Struct, add func(finding, string, string), hot, partner string, v verdict) {
	a, b := orderedPair(s, hot, partner)
	if c.insideOwnType(o, a, b) {
		return // the member's own type is checked, and says so once
	}
	padded := padBetween(s, a, b) != nil
	if padded && v.tier < Declared && (v.tier > 0 || c.hotMember(o, partner) && c.writtenSteadily(o, a, b)) {
		v = verdict{tier: Declared, why: fmt.Sprintf("the padding between %s and %s declares that they are used apart", a, b)}
	}
	if v.tier == 0 {
		return
	}
	owner := hot
	if c.hotMember(o, partner) && a == partner && o.vars == nil {
		// Two hot members: the earlier holds the finding. Variables
		// are declared apart, and each is padded apart.
		owner, partner = partner, hot
	}
	key := owner
	if padded {
		key += "|padded|" + partner
	}
	add(finding{rule: Neighbour, key: key, a: a, b: b, hot: owner, tier: v.tier, writer: v.writer}, partner, v.why)
}

// insideOwnType reports whether two members lie inside one member whose
// type is a struct type of this package: that type's own check judges
// them.
func (c *checker) insideOwnType(o object, a, b string) bool {
	ta, _, okA := strings.Cut(a, ".")
	tb, _, okB := strings.Cut(b, ".")
	if !okA || !okB || ta != tb || strings.Contains(ta, "[") {
		return false
	}
	v := c.hot.memberVars(o.typ)[ta]
	if v == nil {
		return false
	}
	n, ok := types.Unalias(v.Type()).(*types.Named)
	return ok && n.Obj().Pkg() == c.pass.Pkg
}

// hotMember reports whether a member is one the inferred paths write.
func (c *checker) hotMember(o object, member string) bool {
	if v := c.hot.memberVars(o.typ)[member]; v != nil && concurrentElem(v.Type()) {
		return true
	}
	return slices.Contains(c.hot.hotMembers(o.tn), member) || slices.Contains(c.hot.paddedMembers(o.typ), member)
}

// membersOnLine returns the members a path accesses (writes, when write
// is set) with bytes on one line of a case.
func membersOnLine(s *layout.Struct, paths []*access.Path, path string, line, size, phase int64, write bool) []string {
	var out []string
	for _, p := range paths {
		if p.Name != path {
			continue
		}
		ts, err := access.Resolve(p, s)
		if err != nil {
			return nil
		}
		for _, t := range ts {
			if write && !t.Op.Writes() || t.End == t.Offset {
				continue
			}
			sp := layout.SpanOf(t.Offset, t.End-t.Offset, size, phase)
			if sp.First <= line && line <= sp.Last && !slices.Contains(out, t.Member) {
				out = append(out, t.Member)
			}
		}
	}
	return out
}

// isLock reports whether a member of the type is a sync.Mutex or RWMutex.
func (c *checker) isLock(typ types.Type, member string) bool {
	v := c.hot.memberVars(typ)[member]
	return v != nil && isMutex(v.Type())
}

// cutIndex splits "shards[3]" (or "shards[3].n") into "shards" and 3.
// elementIndex returns the index of the element a path names, "3" for
// "a[3].n".
func elementIndex(path string) string {
	_, rest, _ := cutIndex(path)
	i, _, _ := strings.Cut(rest, "]")
	return i
}

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

// instances returns the instances of the package's generic struct types
// that the package creates with concrete type arguments, in source
// order, each once.
func (c *checker) instances() []*types.Named {
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
	for _, a := range all {
		if key := types.TypeString(a.inst, nil); !seen[key] {
			seen[key] = true
			out = append(out, a.inst)
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
