package gosrc

import (
	"go/types"

	"github.com/mglayout/mglayout/layout/placement"
)

// Holders records how a package holds its struct types by value, which
// decides where their objects can start: check, which lays out a
// package's types, and vet, which judges them, both place a type with
// Policy.
type Holders struct {
	// Globals are the types that package-level variables hold, directly
	// or as an array's elements: the linker places those.
	Globals map[types.Object]bool
	// Elements are the types that arrays or slices the package uses hold
	// by value: those start at any multiple of their alignment.
	Elements map[types.Object]bool
}

// NewHolders indexes a type-checked package.
func NewHolders(pkg *types.Package, info *types.Info) *Holders {
	h := &Holders{Globals: map[types.Object]bool{}, Elements: map[types.Object]bool{}}
	scope := pkg.Scope()
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
			h.Globals[n.Origin().Obj()] = true
		}
	}
	for _, tv := range info.Types {
		var elem types.Type
		switch t := tv.Type.Underlying().(type) {
		case *types.Slice:
			elem = t.Elem()
		case *types.Array:
			elem = t.Elem()
		}
		if n, ok := types.Unalias(elem).(*types.Named); ok && n.Obj().Pkg() == pkg {
			h.Elements[n.Origin().Obj()] = true
		}
	}
	return h
}

// Policy returns where a struct type's objects can start: where its
// //mglayout:align says when it has one (declared); otherwise where the
// allocator puts them, where the linker does too when a package-level
// variable holds one, and anywhere its alignment allows when an array or
// slice holds it by value.
func (h *Holders) Policy(tn *types.TypeName, declared bool) placement.Policy {
	if declared {
		return placement.Policy{placement.Declared}
	}
	tn = origin(tn)
	policy := placement.Policy{placement.Heap}
	if h.Globals[tn] {
		policy = append(policy, placement.Global)
	}
	if h.Elements[tn] {
		policy = append(policy, placement.Element)
	}
	return policy
}

// origin returns the generic type a type name instantiates, or the name.
func origin(tn *types.TypeName) *types.TypeName {
	if n, ok := tn.Type().(*types.Named); ok {
		return n.Origin().Obj()
	}
	return tn
}
