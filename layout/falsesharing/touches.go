package falsesharing

import (
	"go/ast"
	"go/types"

	"github.com/mglayout/mglayout/layout/falsesharing/concurrency"
	"github.com/mglayout/mglayout/layout/gosrc"
)

// touchIndex records which functions (or serving loops) name each member
// of each struct type in their own bodies: a cheap necessary condition for false
// sharing, checked before the concurrency model is built. An operation
// that uses a member without the hot one contains a function that does.
type touchIndex map[types.Object]map[string]map[ast.Node]bool

func (c *checker) touchIndex() touchIndex {
	if c.touched != nil {
		return c.touched
	}
	c.touched = touchIndex{}
	filter := []ast.Node{(*ast.SelectorExpr)(nil)}
	c.in.WithStack(filter, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		tn, member := gosrc.MemberOf(c.pass.TypesInfo, n.(*ast.SelectorExpr))
		if tn == nil {
			return true
		}
		// The unit is the function, or the loop a serving function
		// runs, whose setup and teardown are no steady state
		// (concurrency's onceBlocks).
		var unit ast.Node
		for i := len(stack) - 1; i >= 0 && unit == nil; i-- {
			switch s := stack[i].(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				unit = s
			case ast.Stmt:
				if concurrency.ServingLoop(s, c.pass.TypesInfo) {
					unit = s
				}
			}
		}
		if unit == nil {
			return true
		}
		c.touched.add(tn, member, unit)
		// An embedded or nested struct of the package is touched too.
		for inner, rest := range c.hot.nestedMembers(tn, member) {
			c.touched.add(inner, rest, unit)
		}
		return true
	})
	return c.touched
}

func (ti touchIndex) add(obj types.Object, member string, unit ast.Node) {
	byMember := ti[obj]
	if byMember == nil {
		byMember = map[string]map[ast.Node]bool{}
		ti[obj] = byMember
	}
	if byMember[member] == nil {
		byMember[member] = map[ast.Node]bool{}
	}
	byMember[member][unit] = true
}

// mayMeetApart reports whether some function names the partner (or a
// member inside or around it) without naming the hot member: unless one
// does, no operation can use the partner apart from the hot member.
func (ti touchIndex) mayMeetApart(obj types.Object, hot, partner string) bool {
	units := func(member string) map[ast.Node]bool {
		out := map[ast.Node]bool{}
		for m, us := range ti[obj] {
			if overlaps(m, member) {
				for u := range us {
					out[u] = true
				}
			}
		}
		return out
	}
	hu := units(hot)
	for u := range units(partner) {
		if !hu[u] {
			return true
		}
	}
	return false
}

func overlaps(a, b string) bool {
	return concurrency.Within(a, b) || concurrency.Within(b, a)
}
