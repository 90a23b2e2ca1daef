package falsesharing

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/mglayout/mglayout/layout/placement"
)

// objectsInTable is how many objects stand for a run of objects that a
// loop allocates one after another, as shardElements does for a slice.
const objectsInTable = 16

// allocatedInLoops returns the struct types of the package that a loop
// allocates one by one (new(T) or &T{...} in the body of a for or range
// statement), with the function that does: the allocator puts them side
// by side in one span, a size class apart, as if they were the elements
// of an array.
func (c *checker) allocatedInLoops() map[*types.TypeName]string {
	out := map[*types.TypeName]string{}
	filter := []ast.Node{(*ast.CallExpr)(nil), (*ast.CompositeLit)(nil)}
	c.in.WithStack(filter, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		var t types.Type
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) == 1 {
				if b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "new" {
					t = c.pass.TypesInfo.TypeOf(n.Args[0])
				}
			}
		case *ast.CompositeLit:
			if u, ok := stack[len(stack)-2].(*ast.UnaryExpr); ok && u.Op == token.AND {
				t = c.pass.TypesInfo.TypeOf(n)
			}
		}
		named, ok := types.Unalias(t).(*types.Named)
		if !ok || named.Obj().Pkg() != c.pass.Pkg || named.TypeParams().Len() > 0 {
			return true
		}
		if _, ok := named.Underlying().(*types.Struct); !ok {
			return true
		}
		if fn, loop := enclosing(stack); fn != "" && loop {
			out[named.Obj()] = fn
		}
		return true
	})
	return out
}

// enclosing names the innermost function around the top of a stack and
// reports whether a loop of that function's own holds it.
func enclosing(stack []ast.Node) (name string, loop bool) {
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			loop = true
		case *ast.FuncDecl:
			return n.Name.Name, loop
		case *ast.FuncLit:
			return "a function literal", loop
		}
	}
	return "", false
}

// checkObjects checks the types a loop allocates one by one as a table
// of objects a size class apart, starting on a page: the hot members of
// neighbours share lines when the class is not a multiple of the line.
func (c *checker) checkObjects(arch string) error {
	for tn, where := range c.allocatedInLoops() {
		if d := c.dirs.Type(tn); d != nil && (d.Ignore != "" || d.Align > 0) {
			continue
		}
		b, err := c.builder(arch)
		if err != nil {
			return err
		}
		s, err := b.Build(tn.Name(), tn.Type(), 0, "")
		if err != nil {
			return err
		}
		stride, err := placement.Stride(s)
		if err != nil || stride == 0 {
			continue
		}
		fields := []*types.Var{types.NewField(tn.Pos(), c.pass.Pkg, "t", tn.Type(), false)}
		if stride > s.Size {
			fields = append(fields, types.NewField(tn.Pos(), c.pass.Pkg, "_", types.NewArray(types.Typ[types.Byte], stride-s.Size), false))
		}
		elem := types.NewStruct(fields, nil)
		holder := types.NewStruct([]*types.Var{types.NewField(tn.Pos(), c.pass.Pkg, "objs", types.NewArray(elem, objectsInTable), false)}, nil)
		var uses []string
		for _, m := range append(slices.Clone(c.hot.hotMembers(tn)), c.hot.memberFacts(tn.Type())...) {
			uses = append(uses, "objs[].t."+m)
		}
		err = c.checkObject(object{tn: tn, typ: holder, name: tn.Name(), uses: uses, placement: placement.Policy{placement.SpanStart}, pos: tn.Pos(),
			objects: &objectsRun{size: s.Size, stride: stride, where: where}}, arch)
		if err != nil {
			return err
		}
	}
	return nil
}

// objectsRun describes the objects a loop allocates one by one.
type objectsRun struct {
	size, stride int64
	where        string // the function that allocates them
}

// judgeObjects judges objects allocated one by one whose hot members
// share lines with their neighbours': does each object's own goroutine
// write them, or any caller on the steady path?
func (c *checker) judgeObjects(o object) verdict {
	m := c.model()
	if m == nil || m.NotConcurrent(o.tn) {
		return verdict{}
	}
	best := verdict{}
	for _, hot := range c.objectHot(o) {
		for _, t := range m.Touches(o.tn, hot, false) {
			if !t.Writes || t.OnlyConst != "" || !t.Op.Steady() {
				continue
			}
			tier := Likely
			if t.Op.Goroutine && t.Op.Data {
				tier = Proven // a goroutine per object, each on its own CPU
			}
			if tier > best.tier {
				best = verdict{tier: tier, user: evidence{side: side(t, hot+" of its object")}}
			}
		}
	}
	return best
}

// objectHot lists the hot members of a type allocated one by one.
func (c *checker) objectHot(o object) []string {
	out := slices.Clone(c.hot.hotMembers(o.tn))
	for path, v := range c.hot.memberVars(o.tn.Type()) {
		if concurrentElem(v.Type()) {
			out = append(out, path)
		}
	}
	return out
}
