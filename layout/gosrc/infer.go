package gosrc

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
)

// maxShardPaths bounds the per-element paths inferred for an array of hot
// elements: enough for every element that can share a line with another
// at any line size up to 4096 bytes with 64 or more elements.
const maxShardPaths = 64

// AtomicUses returns, for each struct type declared in the files, the
// member paths that sync/atomic updates whatever their type says
// (AtomicSites' Members).
func AtomicUses(files []*ast.File, info *types.Info) map[*types.TypeName][]string {
	return FindAtomicSites(files, info).Members
}

// FindAtomicSites returns the AtomicSites of a package's files.
func FindAtomicSites(files []*ast.File, info *types.Info) AtomicSites {
	return AtomicSitesIn(atomicCalls(files), info)
}

// atomicCalls yields the calls of the files that import sync/atomic.
func atomicCalls(files []*ast.File) iter.Seq[*ast.CallExpr] {
	return func(yield func(*ast.CallExpr) bool) {
		for _, f := range files {
			// Only a file that imports sync/atomic can call it.
			if !slices.ContainsFunc(f.Imports, importsAtomic) {
				continue
			}
			stop := false
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && !stop && !yield(call) {
					stop = true
				}
				return !stop
			})
			if stop {
				return
			}
		}
	}
}

// AtomicSites says what a package gives to sync/atomic: such memory is
// accessed concurrently, whatever its type says.
type AtomicSites struct {
	// Members are, for each struct type, the member paths whose address
	// goes to sync/atomic (atomic.AddInt64(&s.n, 1),
	// atomic.LoadUint32((*uint32)(unsafe.Pointer(&s.state)))), and those
	// of a wrapper type (Wrappers).
	Members map[*types.TypeName][]string
	// Globals are the package-level variables whose address goes to
	// sync/atomic, or that are of a wrapper type.
	Globals map[*types.Var]bool
	// Wrappers are the named word types whose values methods and
	// functions hand to sync/atomic through a pointer to them: type
	// lfhead uint64 with atomic.CompareAndSwapUint64((*uint64)(h), ...).
	Wrappers map[*types.TypeName]bool
}

// AtomicSitesIn finds the AtomicSites of a package in its calls, however
// the caller lists them (an analyzer has an inspector that lists them
// fast), and its types' members of wrapper types.
func AtomicSitesIn(calls iter.Seq[*ast.CallExpr], info *types.Info) AtomicSites {
	sites := AtomicSites{Members: map[*types.TypeName][]string{}, Globals: map[*types.Var]bool{}, Wrappers: map[*types.TypeName]bool{}}
	add := func(tn *types.TypeName, member string) {
		if tn != nil && !slices.Contains(sites.Members[tn], member) {
			sites.Members[tn] = append(sites.Members[tn], member)
		}
	}
	var pkg *types.Package
	for call := range calls {
		if len(call.Args) == 0 || !isAtomicFunc(info, call.Fun) {
			continue
		}
		switch x := atomicOperand(info, call.Args[0]).(type) {
		case *ast.UnaryExpr: // &operand
			if id, ok := ast.Unparen(x.X).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
					sites.Globals[v] = true
				}
				continue
			}
			add(MemberOf(info, x.X))
		case *ast.Ident: // a pointer to a word of a named type
			v, ok := info.Uses[x].(*types.Var)
			if !ok {
				continue
			}
			if p, ok := v.Type().(*types.Pointer); ok {
				if n, ok := types.Unalias(p.Elem()).(*types.Named); ok && n.Obj().Pkg() == v.Pkg() {
					if _, basic := n.Underlying().(*types.Basic); basic {
						sites.Wrappers[n.Obj()] = true
						pkg = v.Pkg()
					}
				}
			}
		}
	}
	if len(sites.Wrappers) == 0 {
		return sites
	}
	// Members and variables of a wrapper type are updated atomically.
	isWrapper := func(t types.Type) bool {
		n, ok := types.Unalias(t).(*types.Named)
		return ok && sites.Wrappers[n.Obj()]
	}
	for _, obj := range info.Defs {
		switch obj := obj.(type) {
		case *types.TypeName:
			if obj.Pkg() != pkg || obj.IsAlias() {
				continue
			}
			for path, v := range MemberVars(obj.Type()) {
				if isWrapper(v.Type()) {
					add(obj, path)
				}
			}
		case *types.Var:
			if obj.Pkg() == pkg && obj.Parent() == pkg.Scope() && isWrapper(obj.Type()) {
				sites.Globals[obj] = true
			}
		}
	}
	return sites
}

// atomicOperand returns what a sync/atomic call's pointer argument
// points to, through conversions ((*uint64)(unsafe.Pointer(&x.n)),
// (*uint64)(h)): the address expression &operand, or the identifier of a
// pointer; nil for anything else.
func atomicOperand(info *types.Info, arg ast.Expr) ast.Expr {
	for range 4 {
		arg = ast.Unparen(arg)
		call, ok := arg.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			break
		}
		if tv, ok := info.Types[call.Fun]; !ok || !tv.IsType() {
			break
		}
		arg = call.Args[0]
	}
	switch x := arg.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return x
		}
	case *ast.Ident:
		return x
	}
	return nil
}

// AtomicElements reports whether the files use sync/atomic on an
// element of a slice, or of an array reached through a pointer
// (&cells[i], &slots[i] with slots a *[256]uint64): tables in other
// allocations, which the syntax cannot tie to a member.
func AtomicElements(files []*ast.File, info *types.Info) bool {
	for _, f := range files {
		if !slices.ContainsFunc(f.Imports, importsAtomic) {
			continue
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if found || !ok || len(call.Args) == 0 || !isAtomicFunc(info, call.Fun) {
				return !found
			}
			if addr, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr); ok {
				if ix, ok := ast.Unparen(addr.X).(*ast.IndexExpr); ok {
					switch info.TypeOf(ix.X).Underlying().(type) {
					case *types.Slice, *types.Pointer:
						found = true
					}
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

func importsAtomic(spec *ast.ImportSpec) bool {
	path, err := strconv.Unquote(spec.Path.Value)
	return err == nil && path == "sync/atomic"
}

func isAtomicFunc(info *types.Info, fun ast.Expr) bool {
	sel, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && fn.Type().(*types.Signature).Recv() == nil
}

// MemberOf resolves x.a.b, x.a[i] or x.a[i].b to the named struct type
// of x and a member path in which an index is written "[]": "a.b",
// "a[]", "a[].b". The walk stops at a pointer or a slice, whose target
// is another object.
func MemberOf(info *types.Info, e ast.Expr) (*types.TypeName, string) {
	switch x := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		if _, ok := info.TypeOf(x.X).Underlying().(*types.Array); !ok {
			return nil, ""
		}
		if tn, path := MemberOf(info, x.X); tn != nil {
			return tn, path + "[]"
		}
	case *ast.SelectorExpr:
		sel := info.Selections[x]
		if sel == nil || sel.Kind() != types.FieldVal {
			return nil, ""
		}
		names := strings.Join(fieldPath(sel), ".")
		if _, viaPointer := info.TypeOf(x.X).Underlying().(*types.Pointer); !viaPointer {
			if tn, path := MemberOf(info, x.X); tn != nil {
				return tn, path + "." + names
			}
		}
		recv := sel.Recv()
		if p, ok := recv.Underlying().(*types.Pointer); ok {
			recv = p.Elem()
		}
		if n, ok := types.Unalias(recv).(*types.Named); ok {
			if _, ok := n.Underlying().(*types.Struct); ok {
				return n.Origin().Obj(), names
			}
		}
	}
	return nil, ""
}

// fieldPath returns the names of the fields a selection goes through.
func fieldPath(sel *types.Selection) []string {
	t := sel.Recv()
	var names []string
	for _, i := range sel.Index() {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		f := t.Underlying().(*types.Struct).Field(i)
		names = append(names, f.Name())
		t = f.Type()
	}
	return names
}

// InferPaths returns the access paths of a Go struct type when it
// declares none: each hot member (a sync/atomic value, a mutex, a member
// whose address goes to sync/atomic, or one marked //mglayout:hot) is
// written by its own path on every CPU; each element of an array of hot
// elements by a path of its own on one CPU (the shards of a per-CPU
// table), writing the element's hot members only, so that padding inside
// the element counts; the other members are read by one path, "readers".
// Members marked //mglayout:cold or //mglayout:ignore take no part.
func InferPaths(s *layout.Struct, typ types.Type, dirs Directives, atomicMembers []string) []*access.Path {
	hot, skip := hotMembers(typ, dirs, atomicMembers)
	var paths []*access.Path
	var readMembers []string
	for i := range s.Fields {
		f := &s.Fields[i]
		if underSkipped(f.Path, skip) || underHot(f.Path, hot) || f.Name == "_" || f.Size == 0 {
			continue // left out, covered by the path of a hot aggregate, or padding
		}
		why, isHot := hot[f.Path]
		elemHot := elementHot(f, hot)
		switch {
		case f.Kind == layout.KindArray && f.Len > 1 && (isHot || len(elemHot) > 0):
			paths = append(paths, shardPaths(f, why, elemHot)...)
		case isHot:
			paths = append(paths, &access.Path{
				Name: f.Path, CPUs: access.AllCPUs, Rate: access.Hot, Inferred: true,
				Accesses: []access.Access{{Op: opFor(why), Member: f.Path}},
				Doc:      "inferred: " + why,
			})
		case !f.Aggregate():
			readMembers = append(readMembers, f.Path)
		}
	}
	if len(paths) == 0 {
		return nil // nothing is written concurrently: nothing to share
	}
	if len(readMembers) > 0 {
		r := &access.Path{Name: "readers", CPUs: access.AllCPUs, Rate: access.Hot, Inferred: true,
			Doc: "inferred: the members no inferred writer writes, read on every CPU"}
		for _, m := range readMembers {
			r.Accesses = append(r.Accesses, access.Access{Op: access.Read, Member: m})
		}
		paths = append(paths, r)
	}
	return paths
}

// hotMembers says which member paths are accessed concurrently and why,
// and which are left out. Members of array elements are written
// "a[].b".
func hotMembers(typ types.Type, dirs Directives, atomicMembers []string) (hot map[string]string, skip map[string]bool) {
	hot, skip = map[string]string{}, map[string]bool{}
	for path, v := range MemberVars(typ) {
		if d := dirs.Field(v); d != nil {
			switch {
			case d.Ignore != "" || d.Cold:
				skip[path] = true
				continue
			case d.Hot:
				hot[path] = "marked //mglayout:hot"
				continue
			}
		}
		if why := concurrentType(v.Type()); why != "" {
			hot[path] = why
		}
	}
	for _, m := range atomicMembers {
		if _, ok := hot[m]; !ok {
			hot[m] = "address passed to sync/atomic"
		}
	}
	return hot, skip
}

// elementHot returns the hot members of an array member's elements, by
// their path inside the element, with why.
func elementHot(f *layout.Field, hot map[string]string) map[string]string {
	out := map[string]string{}
	prefix := f.Path + "[]"
	for path, why := range hot {
		switch {
		case path == prefix:
			out[""] = why
		case strings.HasPrefix(path, prefix+"."):
			out[strings.TrimPrefix(path, prefix+".")] = why
		}
	}
	return out
}

// shardPaths returns one path per element of a hot array, on one CPU,
// writing the element's hot members (or the whole element when it is a
// hot value itself or they are not known).
func shardPaths(f *layout.Field, why string, elemHot map[string]string) []*access.Path {
	// The element's hot members that its layout names (one kept whole,
	// such as a sync.Mutex, is named, its insides are not), in the
	// element's declared order.
	var members []string
	if f.Elem != nil {
		for _, m := range slices.Sorted(maps.Keys(elemHot)) {
			if m != "" && f.Elem.Field(m) != nil {
				members = append(members, m)
			}
		}
		slices.SortStableFunc(members, func(a, b string) int {
			return cmp.Compare(f.Elem.Field(a).Offset, f.Elem.Field(b).Offset)
		})
	}
	if len(members) == 0 {
		members = []string{""}
	}
	if why == "" {
		why = elemHot[members[0]]
		for _, w := range elemHot {
			if why == "" {
				why = w
			}
		}
	}
	var paths []*access.Path
	for e := range min(f.Len, maxShardPaths) {
		p := &access.Path{Name: fmt.Sprintf("%s[%d]", f.Path, e), CPUs: 1, Rate: access.Hot, Inferred: true,
			Doc: fmt.Sprintf("inferred: %s, one CPU per element", why)}
		for _, m := range members {
			member := p.Name
			if m != "" {
				member += "." + m
			}
			p.Accesses = append(p.Accesses, access.Access{Op: access.Write, Member: member})
		}
		paths = append(paths, p)
	}
	return paths
}

func opFor(why string) access.Op {
	if strings.HasPrefix(why, "sync.") {
		return access.CAS // a lock is taken with a compare-and-swap
	}
	return access.Add
}

func underSkipped(path string, skip map[string]bool) bool {
	for p := range skip {
		if path == p || strings.HasPrefix(path, p+".") {
			return true
		}
	}
	return false
}

func underHot(path string, hot map[string]string) bool {
	for p := range hot {
		if strings.HasPrefix(path, p+".") {
			return true
		}
	}
	return false
}

// concurrentType says why values of t are accessed concurrently, or "".
// Arrays of such values are too: each element is someone's.
func concurrentType(t types.Type) string {
	if a, ok := t.Underlying().(*types.Array); ok {
		if why := concurrentType(a.Elem()); why != "" {
			return why + " elements"
		}
		if st, ok := a.Elem().Underlying().(*types.Struct); ok && structHasConcurrent(st) {
			return "elements holding atomics or locks"
		}
		return ""
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	switch path, name := n.Obj().Pkg().Path(), n.Obj().Name(); {
	case path == "sync/atomic":
		return "sync/atomic." + name
	case path == "sync" && (name == "Mutex" || name == "RWMutex"):
		return "sync." + name
	}
	return ""
}

func structHasConcurrent(st *types.Struct) bool {
	for i := range st.NumFields() {
		t := st.Field(i).Type()
		if concurrentType(t) != "" {
			return true
		}
		// The insides of sync's and sync/atomic's types are theirs: a
		// sync.Pool holds atomics, but is no hot value of its own.
		if n, ok := types.Unalias(t).(*types.Named); ok && opaque(n) {
			continue
		}
		if inner, ok := t.Underlying().(*types.Struct); ok && structHasConcurrent(inner) {
			return true
		}
	}
	return false
}

// MemberVars maps each member path of a Go struct type, as the builder
// names them, to its field.
func MemberVars(typ types.Type) map[string]*types.Var {
	vars := map[string]*types.Var{}
	var walk func(prefix string, t types.Type)
	walk = func(prefix string, t types.Type) {
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return
		}
		// Members of sync and sync/atomic types are kept whole, except
		// at the top: the analysis of package sync names Pool's members.
		if n, ok := types.Unalias(t).(*types.Named); ok && opaque(n) && prefix != "" {
			return
		}
		for i := range st.NumFields() {
			v := st.Field(i)
			path := join(prefix, v.Name())
			vars[path] = v
			walk(path, v.Type())
			if a, ok := v.Type().Underlying().(*types.Array); ok {
				walk(path+"[]", a.Elem())
			}
		}
	}
	walk("", typ)
	return vars
}
