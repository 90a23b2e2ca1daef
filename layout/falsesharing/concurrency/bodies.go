package concurrency

import (
	"go/ast"
	"go/types"
)

// A funcNode is a function of the package as its syntax shows it: a
// declaration's body, or a function literal inside one. Literals are
// nodes of their own because the SSA form makes them functions of their
// own, and the order in which the model summarizes functions matters
// only within a cycle of calls between functions.
type funcNode struct {
	decl *ast.FuncDecl
	// mentions is set when the function may touch an object of
	// interest itself: it selects a member of an interesting type,
	// names one of its values or composes one, or names an interesting
	// package-level variable.
	mentions bool
	refs     []*funcNode // the functions it calls, starts or hands on
	callers  []*funcNode
	// index, low and onStack are Tarjan's bookkeeping; cyclic is set
	// for a node on a cycle through another node.
	index, low int
	onStack    bool
	cyclic     bool
}

// neededBodies returns the function declarations whose SSA form the
// model must build to answer for the objects of interest. An access to
// one reaches an operation only from a function that mentions it, or
// through the callers of one; those are built, with everything they
// call, since a helper given &t.mu locks t's member whatever the type of
// its parameter. Any other function would be an operation that touches
// nothing of interest.
//
// Functions on a cycle of calls see each other's summaries as far as
// they are built when the cycle is entered, so where a cycle is built,
// every function that can enter it is built too: it is then entered
// where the model of the whole package enters it.
func neededBodies(pkg *types.Package, files []*ast.File, info *types.Info, interest func(types.Object) bool) map[*ast.FuncDecl]bool {
	g := &bodyGraph{pkg: pkg, info: info, interest: interest, byFunc: map[*types.Func]*funcNode{}, byDecl: map[*ast.FuncDecl][]*funcNode{}}
	var decls []*funcNode
	for _, file := range files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n := &funcNode{decl: fd}
			decls = append(decls, n)
			if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
				g.byFunc[obj] = n
			}
		}
	}
	for _, n := range decls {
		g.walk(n, n.decl.Body)
	}
	g.markCycles()

	// up holds the functions that reach one that mentions an object of
	// interest or a built cycle; queue, those whose declarations are
	// yet to be built.
	up := map[*funcNode]bool{}
	var queue []*funcNode
	var climb func(*funcNode)
	climb = func(n *funcNode) {
		if up[n] {
			return
		}
		up[n] = true
		queue = append(queue, n)
		for _, c := range n.callers {
			climb(c)
		}
	}
	built := map[*ast.FuncDecl]bool{}
	var build func(*ast.FuncDecl)
	build = func(decl *ast.FuncDecl) {
		if built[decl] {
			return
		}
		built[decl] = true
		for _, n := range g.byDecl[decl] {
			if n.cyclic {
				climb(n)
			}
			for _, r := range n.refs {
				build(r.decl)
			}
		}
	}
	for _, n := range g.nodes {
		if n.mentions {
			climb(n)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		build(n.decl)
	}
	return built
}

// bodyGraph is the package's functions and the references between them.
type bodyGraph struct {
	pkg      *types.Package
	info     *types.Info
	interest func(types.Object) bool
	byFunc   map[*types.Func]*funcNode
	byDecl   map[*ast.FuncDecl][]*funcNode
	nodes    []*funcNode
	// Tarjan's stack and counter.
	stack []*funcNode
	next  int
}

// refer records that from calls, starts or hands on to.
func refer(from, to *funcNode) {
	from.refs = append(from.refs, to)
	to.callers = append(to.callers, from)
}

// walk records what the function n, whose body is body, mentions and
// refers to; a function literal inside it is a node of its own, which n
// refers to.
func (g *bodyGraph) walk(n *funcNode, body ast.Node) {
	g.nodes = append(g.nodes, n)
	g.byDecl[n.decl] = append(g.byDecl[n.decl], n)
	ast.Inspect(body, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.FuncLit:
			lit := &funcNode{decl: n.decl}
			refer(n, lit)
			g.walk(lit, x.Body)
			return false
		case *ast.Ident:
			switch obj := g.info.Uses[x].(type) {
			case *types.Func:
				if callee := g.byFunc[obj.Origin()]; callee != nil {
					refer(n, callee)
				}
			case *types.Var:
				if obj.Pkg() == g.pkg && obj.Parent() == g.pkg.Scope() && g.interest(obj) {
					n.mentions = true
				}
			}
		case *ast.SelectorExpr:
			if sel, ok := g.info.Selections[x]; ok && g.selects(sel) {
				n.mentions = true
			}
		}
		if e, ok := node.(ast.Expr); ok && !n.mentions {
			if tv, ok := g.info.Types[e]; ok && g.ofInterest(tv.Type) {
				n.mentions = true
			}
		}
		return true
	})
}

// selects reports whether a selection goes through a member of a type
// of interest: x.f, and the embedded structs x.f is promoted through.
func (g *bodyGraph) selects(sel *types.Selection) bool {
	t := sel.Recv()
	path := sel.Index()
	if sel.Kind() != types.FieldVal {
		path = path[:len(path)-1] // the last index is the method's
	}
	for _, i := range path {
		if g.ofInterest(t) {
			return true
		}
		st, ok := coreType(deref(t)).(*types.Struct)
		if !ok {
			return false
		}
		t = st.Field(i).Type()
	}
	return g.ofInterest(t)
}

// ofInterest reports whether a type, or what a pointer or a type
// parameter's core type holds, is a type of the package the model is to
// answer for.
func (g *bodyGraph) ofInterest(t types.Type) bool {
	for {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
		case *types.TypeParam:
			core := coreType(u)
			if _, ok := core.(*types.Interface); ok {
				return false
			}
			t = core
		case *types.Named:
			obj := u.Origin().Obj()
			return obj.Pkg() == g.pkg && g.interest(obj)
		default:
			return false
		}
	}
}

// markCycles sets cyclic on the nodes that lie on a cycle of two or more
// functions (Tarjan's strongly connected components).
func (g *bodyGraph) markCycles() {
	for _, n := range g.nodes {
		if n.index == 0 {
			g.connect(n)
		}
	}
}

func (g *bodyGraph) connect(n *funcNode) {
	g.next++
	n.index, n.low = g.next, g.next
	g.stack = append(g.stack, n)
	n.onStack = true
	for _, r := range n.refs {
		if r.index == 0 {
			g.connect(r)
			n.low = min(n.low, r.low)
		} else if r.onStack {
			n.low = min(n.low, r.index)
		}
	}
	if n.low != n.index {
		return
	}
	i := len(g.stack) - 1
	for g.stack[i] != n {
		i--
	}
	scc := g.stack[i:]
	g.stack = g.stack[:i]
	for _, m := range scc {
		m.onStack = false
		m.cyclic = len(scc) > 1
	}
}
