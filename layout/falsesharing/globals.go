package falsesharing

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/mglayout/mglayout/layout/gosrc"
	"github.com/mglayout/mglayout/layout/placement"
)

// A run of package-level variables is what the Go linker lays side by
// side: it sorts each data section's symbols by size and keeps the
// compiler's order, the order of declaration, among those of one size.
// So variables of one package, one size and one section sit next to
// each other, size bytes apart.
type globalsRun struct {
	section string // bss, noptrbss, data, noptrdata
	size    int64
	vars    []*types.Var
}

// globalRuns groups the package's variables into runs, in declaration
// order, keeping those of two or more that hold a hot variable.
func (c *checker) globalRuns(arch string) []globalsRun {
	sizes := types.SizesFor("gc", arch)
	hot := c.atomicGlobals()
	var runs []globalsRun
	index := map[[2]any]int{}
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			gen, ok := d.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					v, ok := c.pass.TypesInfo.Defs[name].(*types.Var)
					if !ok || name.Name == "_" {
						continue
					}
					var init ast.Expr
					if len(vs.Values) == len(vs.Names) {
						init = vs.Values[i]
					}
					size := sizes.Sizeof(v.Type())
					if size == 0 {
						continue
					}
					sec := c.section(v, init)
					if sec == "" {
						continue
					}
					key := [2]any{sec, size}
					j, ok := index[key]
					if !ok {
						j = len(runs)
						index[key] = j
						runs = append(runs, globalsRun{section: key[0].(string), size: size})
					}
					runs[j].vars = append(runs[j].vars, v)
				}
			}
		}
	}
	return slices.DeleteFunc(runs, func(r globalsRun) bool {
		return len(r.vars) < 2 || !slices.ContainsFunc(r.vars, func(v *types.Var) bool { return hot[v] || concurrentElem(v.Type()) })
	})
}

// section says where the linker puts a variable: data when it is
// initialised with a constant, bss when it is not initialised, each
// apart for values without pointers; "" when the compiler decides
// (an initialiser it may or may not evaluate at compile time).
func (c *checker) section(v *types.Var, init ast.Expr) string {
	s := "bss"
	if init != nil {
		if c.pass.TypesInfo.Types[init].Value == nil {
			return ""
		}
		s = "data"
	}
	if !gosrc.HasPointers(v.Type()) {
		s = "noptr" + s
	}
	return s
}

// atomicGlobals returns the package-level variables whose address the
// package passes to sync/atomic.
func (c *checker) atomicGlobals() map[*types.Var]bool { return c.hot.atomicVars() }

// atomicVars returns the package-level variables that the package
// gives to sync/atomic (gosrc.AtomicSites).
func (h *hot) atomicVars() map[*types.Var]bool { return h.sites.Globals }

// inHotRun reports whether a package-level variable may lie in a run of
// the linker's beside a hot variable: one of the same size as a hot one
// (the runs are those of one size). The model is asked about those.
func (h *hot) inHotRun(v *types.Var) bool {
	if h.hotSizes == nil {
		h.hotSizes = map[int64]bool{}
		scope := h.pass.Pkg.Scope()
		for _, name := range scope.Names() {
			if g, ok := scope.Lookup(name).(*types.Var); ok && (concurrentElem(g.Type()) || h.atomicVars()[g]) {
				h.hotSizes[h.pass.TypesSizes.Sizeof(g.Type())] = true
			}
		}
	}
	return v.Parent() == h.pass.Pkg.Scope() && h.hotSizes[h.pass.TypesSizes.Sizeof(v.Type())]
}

// checkGlobals checks each run of variables as one object whose members
// are the variables, placed where the linker puts a package-level
// variable.
func (c *checker) checkGlobals(arch string) error {
	for _, r := range c.globalRuns(arch) {
		var fields []*types.Var
		vars := map[string]types.Object{}
		for _, v := range r.vars {
			fields = append(fields, types.NewField(v.Pos(), c.pass.Pkg, v.Name(), v.Type(), false))
			vars[v.Name()] = v
		}
		tn := types.NewTypeName(r.vars[0].Pos(), c.pass.Pkg, "run of variables", nil)
		named := types.NewNamed(tn, types.NewStruct(fields, nil), nil)
		var uses []string
		for _, v := range r.vars {
			if concurrentElem(v.Type()) || c.atomicGlobals()[v] {
				uses = append(uses, v.Name())
			}
		}
		if err := c.checkObject(object{tn: tn, typ: named, name: tn.Name(), uses: uses, placement: placement.Policy{placement.Variables}, vars: vars}, arch); err != nil {
			return err
		}
	}
	return nil
}
