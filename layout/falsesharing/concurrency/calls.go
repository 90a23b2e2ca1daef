package concurrency

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// maxCallbackSteps bounds how far callbacks follows a function value.
const maxCallbackSteps = 6

// callback is a function that a dynamic call may run: with the
// receiver a method value is bound to, or a closure's bindings.
type callback struct {
	fn       *ssa.Function
	recv     []ssa.Value
	bindings []ssa.Value
	// local: found within the calling code's own values (a closure it
	// made and kept in a local slice), not in a field or a parameter
	// that other code may set otherwise: the call surely runs it.
	local bool
}

// stored marks callbacks as found through a field or a parameter.
func stored(cbs []callback) []callback {
	for i := range cbs {
		cbs[i].local = false
	}
	return cbs
}

// callbacks returns the package's functions that a function value may
// be, following it through phi nodes, the fields it is stored in and the
// parameters it is passed as, depth steps: a removal callback chosen
// when the cache is built and kept in each shard.
func (b *builder) callbacks(v ssa.Value, depth int) []callback {
	if depth == 0 {
		return nil
	}
	switch x := v.(type) {
	case *ssa.Function:
		if b.inPkg(x) {
			return []callback{{fn: x, local: true}}
		}
	case *ssa.MakeClosure:
		f, ok := x.Fn.(*ssa.Function)
		if !ok {
			return nil
		}
		if b.inPkg(f) {
			return []callback{{fn: f, bindings: x.Bindings, local: true}}
		}
		// A method value: the bound method, on the receiver bound.
		if m, ok := f.Object().(*types.Func); ok && len(x.Bindings) == 1 {
			if mf := b.pkg.Prog.FuncValue(m); b.inPkg(mf) {
				return []callback{{fn: mf, recv: x.Bindings, local: true}}
			}
		}
	case *ssa.Phi:
		var out []callback
		for _, e := range x.Edges {
			out = append(out, b.callbacks(e, depth-1)...)
		}
		return out
	case *ssa.ChangeType:
		return b.callbacks(x.X, depth)
	case *ssa.UnOp:
		if fv, ok := x.X.(*ssa.FreeVar); ok && x.Op == token.MUL {
			return b.callbacks(fv, depth) // captured by reference
		}
		if ia, ok := x.X.(*ssa.IndexAddr); ok && x.Op == token.MUL {
			// An element of a local slice of functions: those
			// appended to it (workers = append(workers, func() {...})).
			var out []callback
			for _, e := range appended(ia.X, map[ssa.Value]bool{}) {
				out = append(out, b.callbacks(e, depth-1)...)
			}
			return out
		}
		if field := b.fieldOf(x.X); x.Op == token.MUL && field != nil {
			b.storedIndex(field, 0) // fills fieldStores
			var out []callback
			for _, sv := range b.fieldStores[field] {
				out = append(out, b.callbacks(sv, depth-1)...)
			}
			return stored(out)
		}
	case *ssa.FreeVar:
		// What each closure made of the function binds it to.
		fn := x.Parent()
		i := slices.Index(fn.FreeVars, x)
		var out []callback
		for _, mc := range b.closures[fn] {
			if v := boundValue(mc, i); v != nil {
				out = append(out, b.callbacks(v, depth-1)...)
			}
		}
		return out
	case *ssa.Parameter:
		fn := x.Parent()
		i := slices.Index(fn.Params, x)
		var out []callback
		for _, c := range b.sites[fn] {
			if i >= 0 && i < len(c.Args) {
				out = append(out, b.callbacks(c.Args[i], depth-1)...)
			}
		}
		return stored(out)
	}
	return nil
}

// appended returns the values appended to a local slice, following it
// through phi nodes and append calls to where it is made.
func appended(v ssa.Value, seen map[ssa.Value]bool) []ssa.Value {
	if seen[v] {
		return nil
	}
	seen[v] = true
	switch x := v.(type) {
	case *ssa.Phi:
		var out []ssa.Value
		for _, e := range x.Edges {
			out = append(out, appended(e, seen)...)
		}
		return out
	case *ssa.Call:
		if bi, ok := x.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "append" || len(x.Call.Args) != 2 {
			return nil
		}
		out := appended(x.Call.Args[0], seen)
		// The values appended are stored into the elements of the array
		// that the variadic slice is made of.
		if sl, ok := x.Call.Args[1].(*ssa.Slice); ok {
			if arr, ok := sl.X.(*ssa.Alloc); ok {
				for _, r := range *arr.Referrers() {
					if ia, ok := r.(*ssa.IndexAddr); ok {
						for _, rr := range *ia.Referrers() {
							if st, ok := rr.(*ssa.Store); ok && st.Addr == ia {
								out = append(out, st.Val)
							}
						}
					}
				}
			}
		}
		return out
	}
	return nil
}

// boundValue is what a closure binds its i'th free variable to: the
// value, or what is stored into a variable captured by reference; nil
// where that is not one value.
func boundValue(mc *ssa.MakeClosure, i int) ssa.Value {
	if i < 0 || i >= len(mc.Bindings) {
		return nil
	}
	v := mc.Bindings[i]
	if alloc, ok := v.(*ssa.Alloc); ok {
		return storedOnce(alloc)
	}
	return v
}

// maxImplementations bounds the implementations an interface call is
// taken to run: past a few, the call says nothing of which.
const maxImplementations = 3

// implementations returns the methods of the package's types of interest
// that an interface call of method m may run, or none when there are
// more than maxImplementations.
func (b *builder) implementations(iface types.Type, m *types.Func) []*ssa.Function {
	key := implKey{iface, m.Name()}
	if fs, ok := b.impls[key]; ok {
		return fs
	}
	it, ok := iface.Underlying().(*types.Interface)
	if !ok {
		b.impls[key] = nil
		return nil
	}
	var out []*ssa.Function
	for _, tn := range b.implementers() {
		if len(out) > maxImplementations {
			break
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if types.Implements(t, it) {
				if f := b.pkg.Prog.LookupMethod(t, m.Pkg(), m.Name()); b.inPkg(f) {
					out = append(out, f)
				}
				break
			}
		}
	}
	if len(out) > maxImplementations {
		out = nil
	}
	b.impls[key] = out
	return out
}

// implementers returns the package's named types of interest that are
// not generic and not testOnly, in name order: those whose methods an
// interface call may run. They are found once.
func (b *builder) implementers() []*types.TypeName {
	if b.implTypes != nil {
		return b.implTypes
	}
	b.implTypes = []*types.TypeName{}
	scope := b.pkg.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, isType := scope.Lookup(name).(*types.TypeName)
		if !isType || tn.IsAlias() || b.interest != nil && !b.interest(tn) || b.testOnly(tn) {
			continue
		}
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
			continue
		}
		b.implTypes = append(b.implTypes, tn)
	}
	return b.implTypes
}

// testOnly reports whether values of a type serve only tests: a test
// double (TestDouble), or an unexported type that only _test.go files
// make values of. A fake clock declared beside the real one runs in no
// user's call, neither through an interface nor by its own methods.
func (b *builder) testOnly(tn *types.TypeName) bool {
	if b.made == nil {
		b.made = b.madeOutsideTests()
	}
	return TestDouble(tn.Name()) || !b.made[tn] && !tn.Exported()
}

// TestDouble reports whether a type's name says it stands in for the
// real thing in tests: FakeClock, MockSink, stubStore. Such types,
// even exported ones made by constructors for users' tests, run in no
// production call.
func TestDouble(name string) bool {
	for _, w := range camelWords(name) {
		switch strings.ToLower(w) {
		case "fake", "mock", "stub", "dummy", "spy", "test", "testing":
			return true
		}
	}
	return false
}

// madeOutsideTests returns the named types that the package's files
// other than _test.go ones make values of: in a composite literal, with
// new, by a conversion, or as the zero value of a variable.
func (b *builder) madeOutsideTests() map[*types.TypeName]bool {
	out := map[*types.TypeName]bool{}
	mark := func(t types.Type) {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			out[n.Origin().Obj()] = true
		}
	}
	for _, f := range b.files {
		if strings.HasSuffix(b.pkg.Prog.Fset.Position(f.FileStart).Filename, "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				mark(b.info.TypeOf(n))
			case *ast.CallExpr:
				if tv, ok := b.info.Types[n.Fun]; ok && tv.IsType() {
					mark(tv.Type) // a conversion
				} else if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) == 1 {
					if bi, ok := b.info.Uses[id].(*types.Builtin); ok && bi.Name() == "new" {
						mark(b.info.TypeOf(n.Args[0]))
					}
				}
			case *ast.ValueSpec:
				for _, name := range n.Names {
					if v, ok := b.info.Defs[name].(*types.Var); ok {
						mark(v.Type())
					}
				}
			}
			return true
		})
	}
	return out
}

// implKey is an interface method; an interface type met twice as two
// values is found twice.
type implKey struct {
	iface  types.Type
	method string
}
