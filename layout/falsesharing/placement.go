package falsesharing

import (
	"go/types"

	"github.com/mglayout/mglayout/layout/placement"
)

// placementOf returns where a struct type's objects can start: where
// the allocator puts them, where the linker does too when a
// package-level variable of the package holds one, and anywhere its
// alignment allows when an array or slice holds it by value (objects a
// loop allocates one by one stay in their size class).
func (c *checker) placementOf(tn *types.TypeName) placement.Policy {
	policy := placement.Policy{placement.Heap}
	if c.hasGlobal(tn) {
		policy = append(policy, placement.Global)
	}
	if c.valueElements()[tn] {
		policy = append(policy, placement.Element)
	}
	return policy
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
