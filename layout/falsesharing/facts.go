package falsesharing

import (
	"go/ast"
	"go/build"
	"go/types"
	"iter"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/mglayout/mglayout/layout/falsesharing/concurrency"
	"github.com/mglayout/mglayout/layout/gosrc"
)

// HotMembers finds the members of each struct type that a package writes
// atomically, whatever their type, and exports them for exported types
// as facts, so that a package using the type (as an array element, say)
// knows which of its bytes are hot. It is the part of the analysis that
// must run on every dependency; falsesharing, which requires it, runs on
// the packages being checked alone.
var HotMembers = &analysis.Analyzer{
	Name:       "hotmembers",
	Doc:        "record the members of exported struct types that are written concurrently, for falsesharing",
	URL:        Home + "#the-go-vet-analyzer",
	Run:        runHot,
	FactTypes:  []analysis.Fact{new(hotFact)},
	ResultType: reflect.TypeFor[*hot](),
}

// hot is HotMembers' result for one package.
type hot struct {
	pass *analysis.Pass
	dirs gosrc.Directives
	// atomics are the members of each type that the package writes
	// atomically, whatever their type.
	atomics map[types.Object][]string
	// sites are what the syntax gives to sync/atomic; uses their
	// members.
	sites gosrc.AtomicSites
	uses  map[*types.TypeName][]string
	// lifted is set once wrappers' members have been added to atomics.
	lifted bool
	// interest caches interesting, vars memberVars.
	interest map[types.Object]bool
	vars     map[types.Type]map[string]*types.Var
	// conc is the package's concurrency model, built the first time
	// something needs it: most packages have no false sharing to prove.
	conc     *concurrency.Model
	concErr  error
	concDone bool
	// spawns caches startsGoroutines: 0 unknown, 1 no, 2 yes;
	// elemAtomics caches atomicElements the same way.
	spawns, elemAtomics int8
	// hotSizes memoises inHotRun.
	hotSizes map[int64]bool
	// stored memoises goStored.
	stored map[types.Object]bool
}

// atomicElements reports whether the package uses sync/atomic on
// elements of slices or of arrays through pointers
// (gosrc.AtomicElements): only then are tables of plain words checked.
func (h *hot) atomicElements() bool {
	if h.elemAtomics == 0 {
		h.elemAtomics = 1
		if gosrc.AtomicElements(h.pass.Files, h.pass.TypesInfo) {
			h.elemAtomics = 2
		}
	}
	return h.elemAtomics == 2
}

// startsGoroutines reports whether the package starts goroutines in a
// loop (a go statement in the body of a for or range statement): only
// then can goroutines own the elements of a table, one each.
func (h *hot) startsGoroutines() bool {
	if h.spawns == 0 {
		h.spawns = 1
		for _, f := range h.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				var body *ast.BlockStmt
				switch n := n.(type) {
				case *ast.ForStmt:
					body = n.Body
				case *ast.RangeStmt:
					body = n.Body
				default:
					return h.spawns == 1
				}
				ast.Inspect(body, func(m ast.Node) bool {
					if _, ok := m.(*ast.GoStmt); ok {
						h.spawns = 2
					}
					return h.spawns == 1
				})
				return h.spawns == 1
			})
		}
	}
	return h.spawns == 2
}

func runHot(pass *analysis.Pass) (any, error) {
	// A malformed directive is falsesharing's to report; the facts are
	// found without the directives then.
	dirs, _ := gosrc.ParseDirectives(pass.Fset, pass.Files, pass.TypesInfo)
	h := &hot{pass: pass, dirs: dirs}
	h.atomics = h.atomicMembers()
	if inGOROOT(pass) {
		// The standard library's types are known by their types alone:
		// mglayout vet reads its packages from export data, and go vet,
		// which reads them from source, must find the same. The sync
		// types are kept whole anyway; outside them and internal
		// packages, two types (go/types.Named, os/exec.Cmd) have a
		// plain word written through sync/atomic.
		return h, nil
	}
	// Facts are found from the types alone, as importers compose them:
	// go vet runs this on every dependency, where building the model
	// would cost most of the run.
	for tn, named := range structTypes(pass.Pkg) {
		h.exportFact(tn, named)
	}
	return h, nil
}

// inGOROOT reports whether a pass is over a package of the standard
// library: its files lie in GOROOT/src.
func inGOROOT(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 || build.Default.GOROOT == "" {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	return strings.HasPrefix(name, filepath.Join(build.Default.GOROOT, "src")+string(filepath.Separator))
}

// fact returns the fact an imported type carries.
func (h *hot) fact(obj types.Object) (*hotFact, bool) {
	var f hotFact
	if h.pass.ImportObjectFact(obj, &f) {
		return &f, true
	}
	return nil, false
}

// interesting reports whether the analysis may ask the model about an
// object: a package-level variable checked as a table, or a struct type
// that holds hot members (atomics and locks, members written through
// sync/atomic or marked //mglayout:hot, cache-line padding, imported hot
// types) at any depth. The answer is kept.
func (h *hot) interesting(obj types.Object) bool {
	if v, ok := obj.(*types.Var); ok {
		return tableType(v.Type()) || h.inHotRun(v)
	}
	if v, ok := h.interest[obj]; ok {
		return v
	}
	if h.interest == nil {
		h.interest = map[types.Object]bool{}
	}
	h.interest[obj] = false // a type that holds itself through pointers
	tn, ok := obj.(*types.TypeName)
	v := ok && (h.holdsHot(tn) || h.goStored()[tn])
	h.interest[obj] = v
	return v
}

// tableType reports whether a package-level variable of type t is
// checked as a table, as checkTable does: an array or slice of structs,
// or of atomics and locks. Besides those, the model is asked only about
// the variables of the linker's runs that hold a hot one (inHotRun).
func tableType(t types.Type) bool {
	var elem types.Type
	switch u := t.Underlying().(type) {
	case *types.Array:
		elem = u.Elem()
	case *types.Slice:
		elem = u.Elem()
	default:
		return false
	}
	_, isStruct := elem.Underlying().(*types.Struct)
	return isStruct || concurrentElem(elem)
}

// holdsHot reports whether a struct type, or the elements of a named
// slice or array type, hold hot members at any depth, a slice's elements
// and local types holding them included.
func (h *hot) holdsHot(tn *types.TypeName) bool {
	if len(h.atomics[tn]) > 0 || len(h.paddedMembers(tn.Type())) > 0 || len(h.memberFacts(tn.Type())) > 0 {
		return true
	}
	hotType := func(t types.Type) bool {
		if concurrentElem(t) {
			return true
		}
		n, ok := types.Unalias(t).(*types.Named)
		return ok && n.Origin().Obj().Pkg() == h.pass.Pkg && h.interesting(n.Origin().Obj())
	}
	// A table of the package's structs, or of words, that goroutines
	// may each own an element of (shards merged one goroutine per
	// shard, counts[w] += n in worker w).
	ownTable := func(t types.Type) bool {
		if elemOf(t) == t || !h.startsGoroutines() {
			return false
		}
		if isWord(elemOf(t)) {
			return true
		}
		n, ok := types.Unalias(elemOf(t)).(*types.Named)
		if !ok || n.Obj().Pkg() != h.pass.Pkg {
			return false
		}
		_, isStruct := n.Underlying().(*types.Struct)
		return isStruct
	}
	if hotType(elemOf(tn.Type())) && elemOf(tn.Type()) != tn.Type() {
		return true
	}
	// A table of plain words in another allocation, where the package
	// uses sync/atomic on such elements: cells []uint64, all
	// [3]*[256]uint64.
	wordTable := func(t types.Type) bool {
		elem, ok := tableElem(t)
		return ok && isWord(elem) && h.atomicElements()
	}
	for _, m := range h.memberVars(tn.Type()) {
		if hotType(m.Type()) || hotType(elemOf(m.Type())) || ownTable(m.Type()) || wordTable(m.Type()) {
			return true
		}
		if d := h.dirs.Field(m); d != nil && d.Hot {
			return true
		}
	}
	return false
}

// model returns the package's concurrency model, building it on first
// use.
func (h *hot) model() (*concurrency.Model, error) {
	if !h.concDone {
		h.concDone = true
		h.conc, h.concErr = concurrency.Build(h.pass.Fset, h.pass.Pkg, h.pass.Files, h.pass.TypesInfo, h.external, h.interesting)
	}
	return h.conc, h.concErr
}

// exportFact records the hot members of an exported struct type for
// packages that use it as an array element.
func (h *hot) exportFact(tn *types.TypeName, named *types.Named) {
	if !tn.Exported() {
		return
	}
	members := slices.Concat(h.atomics[tn], h.memberFacts(named), h.wrappedMembers(tn, named))
	for path, v := range h.memberVars(named) {
		if d := h.dirs.Field(v); d != nil && d.Hot {
			members = append(members, path)
		}
	}
	if members = innermost(members); len(members) > 0 {
		h.pass.ExportObjectFact(tn, &hotFact{Members: members})
	}
}

// heldNamed yields the members of a type whose type, or array element
// type, is a named type, with the path under which that type's members
// are named: "c" for c pkg.Counter, "cs[]" for cs [8]pkg.Counter.
func (h *hot) heldNamed(typ types.Type) iter.Seq2[string, *types.Named] {
	return func(yield func(string, *types.Named) bool) {
		for path, v := range h.memberVars(typ) {
			t := v.Type()
			if a, ok := t.Underlying().(*types.Array); ok {
				t, path = a.Elem(), path+"[]"
			}
			if n, ok := types.Unalias(t).(*types.Named); ok && !yield(path, n) {
				return
			}
		}
	}
}

// memberFacts turns the hot members that facts record for imported types
// the type holds, directly, as array elements or deeper, into member
// paths of the type: h.n for c pkg.Counter whose fact says n, cs[].h.n
// for cs [8]struct{ c pkg.Counter }.
func (h *hot) memberFacts(typ types.Type) []string {
	var out []string
	for path, n := range h.heldNamed(typ) {
		if n.Obj().Pkg() == h.pass.Pkg || h.keptWhole(n) {
			continue
		}
		if fact, ok := h.fact(n.Obj()); ok {
			for _, m := range fact.Members {
				out = append(out, path+"."+m)
			}
		}
	}
	return out
}

// wrappedMembers returns the members that the package's own types
// write atomically, as paths of a type that holds them, directly, as
// array elements or deeper: c.v for c counter whose methods update v
// with sync/atomic. This is what memberFacts does with imported types'
// facts; unlike the model, it does not ask whether the holder's
// methods call the writing ones, which its importers may.
func (h *hot) wrappedMembers(tn *types.TypeName, typ types.Type) []string {
	var out []string
	for path, n := range h.heldNamed(typ) {
		if n.Origin().Obj() == tn || n.Origin().Obj().Pkg() != h.pass.Pkg {
			continue
		}
		for _, m := range h.atomics[n.Origin().Obj()] {
			out = append(out, path+"."+m)
		}
	}
	return out
}

// keptWhole reports whether a type's values are used as one unit, so
// that facts about their insides do not matter: the types of sync and
// sync/atomic, which the layout keeps whole too, unless it is that
// package being analysed.
func (h *hot) keptWhole(n *types.Named) bool {
	pkg := n.Obj().Pkg()
	return pkg != nil && pkg != h.pass.Pkg && (pkg.Path() == "sync" || pkg.Path() == "sync/atomic")
}

// atomicMembers returns the members of each type that the package
// writes atomically, as the syntax shows them: those whose address goes
// to sync/atomic, for the type named in the selection and for every
// struct type of the package the path goes through (an embedded
// struct's members are its own).
func (h *hot) atomicMembers() map[types.Object][]string {
	out := map[types.Object][]string{}
	h.sites = gosrc.FindAtomicSites(h.pass.Files, h.pass.TypesInfo)
	h.uses = h.sites.Members
	for tn, ms := range h.uses {
		for _, m := range ms {
			out[tn] = append(out[tn], m)
			for inner, rest := range h.nestedMembers(tn, m) {
				out[inner] = append(out[inner], rest)
			}
		}
	}
	for obj, ms := range out {
		out[obj] = innermost(ms)
	}
	return out
}

// hotMembers returns the members of a type that the package writes
// atomically: those of atomicMembers and, where the package holds its
// own wrappers of atomics in other types, those the concurrency model
// sees updated through a wrapper's methods. The model is built here only
// for that, once: elsewhere it waits until a finding needs judging.
//
// So it is for the members that one goroutine alone writes with plain
// stores on its steady path (concurrency.Model.SoleWriterStores), in the
// types whose members the syntax shows a goroutine's function storing
// (goStored): a committer's version, bumped per transaction beside what
// every reader loads.
func (h *hot) hotMembers(obj types.Object) []string {
	if !h.lifted {
		h.lifted = true
		if h.holdsWrappers() {
			h.liftWrappers()
		}
		if len(h.goStored()) > 0 {
			h.liftSoleWriters()
		}
	}
	return h.atomics[obj]
}

// goStored returns the package's struct types whose members a function
// that a go statement starts (a method, a function, a literal) assigns
// or increments through a selector, as the syntax shows: the types
// whose plain members a goroutine may own. The answer is kept.
func (h *hot) goStored() map[types.Object]bool {
	if h.stored != nil {
		return h.stored
	}
	h.stored = map[types.Object]bool{}
	info := h.pass.TypesInfo
	bodies := map[*types.Func]*ast.BlockStmt{}
	for _, f := range h.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					bodies[fn] = fd.Body
				}
			}
		}
	}
	store := func(e ast.Expr) {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return
		}
		if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
			if n, ok := types.Unalias(derefPtr(s.Recv())).(*types.Named); ok && n.Obj().Pkg() == h.pass.Pkg {
				h.stored[n.Origin().Obj()] = true
			}
		}
	}
	for _, f := range h.pass.Files {
		for n := range ast.Preorder(f) {
			g, ok := n.(*ast.GoStmt)
			if !ok {
				continue
			}
			var body *ast.BlockStmt
			switch fun := ast.Unparen(g.Call.Fun).(type) {
			case *ast.FuncLit:
				body = fun.Body
			case *ast.SelectorExpr:
				if fn, ok := info.Uses[fun.Sel].(*types.Func); ok {
					body = bodies[fn]
				}
			case *ast.Ident:
				if fn, ok := info.Uses[fun].(*types.Func); ok {
					body = bodies[fn]
				}
			}
			if body == nil {
				continue
			}
			for m := range ast.Preorder(body) {
				switch m := m.(type) {
				case *ast.AssignStmt:
					for _, l := range m.Lhs {
						store(l)
					}
				case *ast.IncDecStmt:
					store(m.X)
				}
			}
		}
	}
	return h.stored
}

// liftSoleWriters adds to atomics the members that one goroutine alone
// writes with plain stores on its steady path.
func (h *hot) liftSoleWriters() {
	m, _ := h.model()
	if m == nil {
		return
	}
	for obj, ms := range m.SoleWriterStores() {
		if !h.goStored()[obj] {
			continue
		}
		h.atomics[obj] = innermost(append(h.atomics[obj], ms...))
	}
}

// liftWrappers adds to atomics what the model sees written atomically
// through wrappers' methods.
func (h *hot) liftWrappers() {
	m, _ := h.model()
	if m == nil {
		return
	}
	for obj, ms := range m.AtomicWrites() {
		for _, member := range ms {
			// Atomics and locks are hot by their type, wherever they are.
			if v := h.memberVars(obj.Type())[member]; v == nil || !concurrentElem(v.Type()) {
				h.atomics[obj] = append(h.atomics[obj], member)
			}
		}
	}
	for obj, ms := range h.atomics {
		h.atomics[obj] = innermost(ms)
	}
}

// nestedMembers yields, for a member path of a type, each struct type of
// the package that the path goes through, with the rest of the path:
// for MPSC's ring.tail, the type of ring and "tail".
func (h *hot) nestedMembers(tn types.Object, member string) iter.Seq2[types.Object, string] {
	return func(yield func(types.Object, string) bool) {
		vars := h.memberVars(tn.Type())
		for i := range len(member) {
			if member[i] != '.' {
				continue
			}
			v := vars[member[:i]]
			if v == nil {
				continue
			}
			t := v.Type()
			if strings.HasSuffix(member[:i], "[]") {
				t = elemOf(t)
			}
			if n, ok := types.Unalias(t).(*types.Named); ok && n.Origin().Obj().Pkg() == h.pass.Pkg {
				if !yield(n.Origin().Obj(), member[i+1:]) {
					return
				}
			}
		}
	}
}

// holdsWrappers reports whether a struct type of the package holds a
// value of another of its types whose own methods use sync/atomic on
// their receiver's members (a wrapper such as counter{v uintptr} whose
// Add calls atomic.AddUintptr): only the model sees the holder's member
// updated through the wrapper's method.
func (h *hot) holdsWrappers() bool {
	uses := h.uses
	if len(uses) == 0 {
		return false
	}
	scope := h.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		for _, v := range h.memberVars(tn.Type()) {
			if n, ok := types.Unalias(elemOf(v.Type())).(*types.Named); ok && n.Origin().Obj() != tn && uses[n.Origin().Obj()] != nil {
				return true
			}
		}
	}
	return false
}

// external says how another package's method uses its receiver when
// facts say the receiver's type is hot: a wrapper of sync/atomic
// (go.uber.org/atomic's Int64) updates it, unless its name says it
// only reads.
func (h *hot) external(fn *types.Func) (concurrency.Kind, bool) {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return 0, false
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == h.pass.Pkg {
		return 0, false
	}
	var fact hotFact
	if !h.pass.ImportObjectFact(n.Origin().Obj(), &fact) {
		return 0, false
	}
	for _, p := range []string{"Load", "Get", "Value", "String", "Read", "Snapshot", "Count", "Rate", "Mean", "Max", "Min", "Sum"} {
		if strings.HasPrefix(fn.Name(), p) {
			return concurrency.Load, true
		}
	}
	if strings.HasPrefix(fn.Name(), "Store") || strings.HasPrefix(fn.Name(), "Set") {
		return concurrency.Store, true
	}
	return concurrency.Update, true
}

// innermost sorts member paths and drops duplicates and those with a
// member of their own in the list: a wrapper c updated through c.n is
// named by c.n.
func innermost(ms []string) []string {
	ms = slices.DeleteFunc(slices.Clone(ms), func(m string) bool {
		return slices.ContainsFunc(ms, func(n string) bool { return n != m && concurrency.Within(n, m) })
	})
	slices.Sort(ms)
	return slices.Compact(ms)
}

// derefPtr returns what a pointer type points to, or the type.
func derefPtr(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}
