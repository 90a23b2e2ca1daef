package falsesharing

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// A struct type that the package only ever holds by value inside other
// structs (a stats block in a shard, a ring's indexes embedded in the
// ring) sits at a fixed offset of the object that holds it: where its
// members fall on lines is that object's layout, not the phases of an
// allocation of its own. Such a type is checked as part of its holders;
// a type with values of its own is checked alone too.

// alone reports whether values of a struct type of the package live on
// their own somewhere: allocated (new(T), &T{...}), held in a
// package-level variable of type T, in a local one that others may reach,
// or in an array, slice, map or channel of T, or, for an exported type
// with pointer methods, in its users' variables. A type with directives
// is checked as its author declares it.
func (c *checker) alone(tn *types.TypeName) bool {
	if c.aloneTypes == nil {
		c.aloneTypes = c.findAlone()
	}
	return c.aloneTypes[tn] || c.dirs.Type(tn) != nil
}

func (c *checker) findAlone() map[*types.TypeName]bool {
	out := map[*types.TypeName]bool{}
	mark := func(t types.Type) {
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Origin().Obj().Pkg() == c.pass.Pkg {
			out[n.Origin().Obj()] = true
		}
	}
	// Containers of T, in any type the package mentions.
	var containers func(t types.Type, depth int)
	containers = func(t types.Type, depth int) {
		if depth > 4 {
			return
		}
		switch u := types.Unalias(t).(type) {
		case *types.Array:
			mark(u.Elem())
			containers(u.Elem(), depth+1)
		case *types.Slice:
			mark(u.Elem())
			containers(u.Elem(), depth+1)
		case *types.Map:
			mark(u.Elem())
			containers(u.Elem(), depth+1)
		case *types.Chan:
			mark(u.Elem())
		case *types.Pointer:
			containers(u.Elem(), depth+1)
		}
	}
	for _, tv := range c.pass.TypesInfo.Types {
		containers(tv.Type, 0)
	}
	// A package-level variable of type T; a local one (or a parameter)
	// is a copy unless its address is taken or a closure shares it.
	shared := c.sharedLocals()
	for _, obj := range c.pass.TypesInfo.Defs {
		v, ok := obj.(*types.Var)
		if !ok || v.IsField() {
			continue
		}
		if v.Parent() == c.pass.Pkg.Scope() || shared[v] {
			mark(v.Type())
		}
		containers(v.Type(), 0)
	}
	for _, f := range c.pass.Files {
		if c.testFile(f) {
			continue // values only tests make are no user's
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) == 1 {
					if b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "new" {
						mark(c.pass.TypesInfo.TypeOf(n.Args[0]))
					}
				}
			case *ast.UnaryExpr:
				if lit, ok := ast.Unparen(n.X).(*ast.CompositeLit); ok && n.Op == token.AND {
					mark(c.pass.TypesInfo.TypeOf(lit))
				}
			}
			return true
		})
	}
	// An exported type with pointer methods is its users' to allocate.
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || out[tn] {
			continue
		}
		if named, ok := tn.Type().(*types.Named); ok {
			for m := range named.Methods() {
				if _, ptr := m.Signature().Recv().Type().(*types.Pointer); ptr {
					out[tn] = true
					break
				}
			}
		}
	}
	return out
}

// sharedLocals returns the local variables (parameters included) whose
// address is taken, &x, or that a function literal uses from outside:
// the variables whose values others may reach.
func (c *checker) sharedLocals() map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for _, f := range c.pass.Files {
		if c.testFile(f) {
			continue
		}
		var lits []*ast.FuncLit
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.UnaryExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
					if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok {
						out[v] = true
					}
				}
			case *ast.FuncLit:
				lits = append(lits, n)
			}
			return true
		})
		for _, lit := range lits {
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && (v.Pos() < lit.Pos() || v.Pos() >= lit.End()) {
						out[v] = true
					}
				}
				return true
			})
		}
	}
	return out
}

// testFile reports whether a file is a _test.go file, which go vet's
// test variants load.
func (c *checker) testFile(f *ast.File) bool {
	return strings.HasSuffix(c.pass.Fset.Position(f.FileStart).Filename, "_test.go")
}
