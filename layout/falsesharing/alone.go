package falsesharing

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout/falsesharing/concurrency"
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

// A type whose values the package makes on its data path and keeps in
// a container (an entry a Set puts in a map, a node a Push links to its
// list, an element appended to a slice) or hands over on a channel (a
// batch, a request), never in a constructor, has a value per item: each is touched by the calls that handle its item, one
// key at a time, and padding each would cost memory per item for
// contention on hot keys alone. Its pairs are likely, not proven.
// Values returned to the caller (a connection, a transaction) are
// handles, not items.

// perItem reports whether a struct type of the package has a value per
// item: the package's code outside tests keeps values it makes outside
// constructors in containers, and makes none in a constructor.
func (c *checker) perItem(tn types.Object) bool {
	if c.madeIn == nil {
		c.madeIn = c.findMadeIn()
	}
	sites := c.madeIn[tn]
	return sites.kept && !sites.inConstructor
}

// makeSites is how the package makes values of a type.
type makeSites struct {
	inConstructor bool // some value is made in a constructor or at initialisation
	kept          bool // some value made elsewhere goes into a container
}

// findMadeIn finds the makeSites of the package's struct types.
func (c *checker) findMadeIn() map[types.Object]makeSites {
	out := map[types.Object]makeSites{}
	for _, f := range c.pass.Files {
		if c.testFile(f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				if gd, ok := d.(*ast.GenDecl); ok {
					ast.Inspect(gd, func(n ast.Node) bool {
						if obj := c.madeType(n); obj != nil {
							sites := out[obj]
							sites.inConstructor = true
							out[obj] = sites
						}
						return true
					})
				}
				continue
			}
			constructor := fd.Name.Name == "init" || concurrency.ConstructorName(fd.Name.Name, fd.Recv != nil)
			c.madeInFunc(fd.Body, constructor, out)
		}
	}
	return out
}

// madeInFunc records the values a function body makes: in a
// constructor, made there; elsewhere, kept when they go into a
// container, directly or through the local variable they are assigned
// to.
func (c *checker) madeInFunc(body *ast.BlockStmt, constructor bool, out map[types.Object]makeSites) {
	info := c.pass.TypesInfo
	made := map[types.Object]types.Object{} // local variable: the type of the value made into it
	kept := func(e ast.Expr) types.Object {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		if obj := c.madeType(e); obj != nil {
			return obj
		}
		if id, ok := e.(*ast.Ident); ok {
			return made[info.Uses[id]]
		}
		return nil
	}
	keep := func(obj types.Object) {
		if obj != nil {
			sites := out[obj]
			sites.kept = true
			out[obj] = sites
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if obj := c.madeType(n); obj != nil {
			sites := out[obj]
			sites.inConstructor = sites.inConstructor || constructor
			out[obj] = sites
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if i >= len(n.Rhs) || len(n.Lhs) != len(n.Rhs) {
					break
				}
				if id, ok := lhs.(*ast.Ident); ok {
					if obj := kept(n.Rhs[i]); obj != nil {
						if v := info.ObjectOf(id); v != nil {
							made[v] = obj
						}
					}
					continue
				}
				// m[k] = v, s[i] = v, n.next = v.
				if _, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
					keep(kept(n.Rhs[i]))
				}
				if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
					if obj := kept(n.Rhs[i]); obj != nil && c.linksOwnType(sel, obj) {
						keep(obj)
					}
				}
			}
		case *ast.SendStmt:
			// ch <- v: handed over, one item at a time.
			keep(kept(n.Value))
		case *ast.CallExpr:
			// append(s, v), list.PushBack(v), m.Store(k, v).
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "append" {
				for _, a := range n.Args[1:] {
					keep(kept(a))
				}
			}
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				args := n.Args
				if slices.Contains(keyedMethods, sel.Sel.Name) && len(args) > 1 {
					args = args[1:] // the value, after its key
				} else if !slices.Contains(containerMethods, sel.Sel.Name) {
					args = nil
				}
				for _, a := range args {
					keep(kept(a))
				}
			}
		}
		return true
	})
}

// containerMethods are the methods by which containers take values
// (container/list's, a heap's); keyedMethods those that take a key
// first (sync.Map's), unlike an atomic.Pointer's Store(v).
var (
	containerMethods = []string{"PushBack", "PushFront", "InsertBefore", "InsertAfter", "Push"}
	keyedMethods     = []string{"Store", "LoadOrStore", "Swap", "Set", "Put", "Add"}
)

// linksOwnType reports whether a selected field holds values of obj's
// type: a node's next, a list's head.
func (c *checker) linksOwnType(sel *ast.SelectorExpr, obj types.Object) bool {
	t := c.pass.TypesInfo.TypeOf(sel)
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Origin().Obj() == obj
}

// madeType returns the struct type of the package whose value a node
// makes (a composite literal, new(T)), or nil.
func (c *checker) madeType(n ast.Node) types.Object {
	var t types.Type
	switch n := n.(type) {
	case *ast.CompositeLit:
		t = c.pass.TypesInfo.TypeOf(n)
	case *ast.CallExpr:
		if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) == 1 {
			if b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "new" {
				t = c.pass.TypesInfo.TypeOf(n.Args[0])
			}
		}
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() != c.pass.Pkg {
		return nil
	}
	if _, isStruct := named.Underlying().(*types.Struct); !isStruct {
		return nil
	}
	return named.Origin().Obj()
}
