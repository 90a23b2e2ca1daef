package gosrc

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/mglayout/mglayout/layout"
)

// A package type-checked for one GOARCH has its array lengths folded for
// that GOARCH: [lineSize - 8]byte with const lineSize =
// unsafe.Sizeof(cpu.CacheLinePad{}) is 56 bytes when checked for amd64,
// 120 for arm64. ArrayLens evaluates the lengths of the arrays that the
// package's struct types declare again for another GOARCH, so that one
// type-check serves every GOARCH laid out.

// ArrayLens returns, for the arrays that the struct types of a package's
// files declare, the lengths their length expressions have on arch where
// those differ from the lengths the package was checked with. The
// expressions are evaluated again through unsafe.Sizeof, Alignof and
// Offsetof (sized for arch, x/sys/cpu.CacheLinePad included) and through
// the package's own constants; other packages' constants keep their
// values.
func ArrayLens(files []*ast.File, info *types.Info, arch string) map[*types.Array]int64 {
	b, err := NewBuilder(arch, layout.SourceGo, Directives{})
	if err != nil {
		return nil
	}
	decls := constDecls(files, info)
	// Twice: a length may depend on the size of a type whose own arrays
	// change (unsafe.Sizeof(bucket{}) of a padded bucket).
	for range 2 {
		e := &lenEval{b: b, info: info, decls: decls, memo: map[types.Object]constant.Value{}}
		b.Lens = e.lens(files)
	}
	return b.Lens
}

// lens evaluates the arrays' lengths once.
func (e *lenEval) lens(files []*ast.File) map[*types.Array]int64 {
	info := e.info
	out := map[*types.Array]int64{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			at, ok := n.(*ast.ArrayType)
			if !ok || at.Len == nil {
				return true
			}
			arr, ok := info.TypeOf(at).(*types.Array)
			if !ok {
				return true
			}
			if v := e.eval(at.Len, 0); v != nil {
				if n, ok := constant.Int64Val(constant.ToInt(v)); ok && n >= 0 && n != arr.Len() {
					out[arr] = n
				}
			}
			return true
		})
	}
	return out
}

// constDecls returns the expression each package-level constant of the
// files is declared with.
func constDecls(files []*ast.File, info *types.Info) map[types.Object]ast.Expr {
	out := map[types.Object]ast.Expr{}
	for _, spec := range genSpecs(files, token.CONST) {
		vs := spec.(*ast.ValueSpec)
		for i, name := range vs.Names {
			if i < len(vs.Values) {
				if obj := info.Defs[name]; obj != nil {
					out[obj] = vs.Values[i]
				}
			}
		}
	}
	return out
}

// lenEval evaluates constant expressions for another GOARCH.
type lenEval struct {
	b     *Builder
	info  *types.Info
	decls map[types.Object]ast.Expr
	memo  map[types.Object]constant.Value
}

// eval returns the value of a constant expression on the evaluator's
// GOARCH, or nil when it cannot say (the checker's value then stands).
func (e *lenEval) eval(x ast.Expr, depth int) constant.Value {
	if depth > 32 {
		return nil
	}
	tv := e.info.Types[x]
	switch x := ast.Unparen(x).(type) {
	case *ast.BasicLit:
		return tv.Value
	case *ast.Ident:
		obj := e.info.Uses[x]
		if _, isConst := obj.(*types.Const); !isConst {
			return tv.Value
		}
		if v, ok := e.memo[obj]; ok {
			return v
		}
		v := tv.Value
		if decl, ok := e.decls[obj]; ok {
			e.memo[obj] = v // a cycle tells nothing more
			if dv := e.eval(decl, depth+1); dv != nil {
				v = dv
			}
		}
		e.memo[obj] = v
		return v
	case *ast.BinaryExpr:
		l, r := e.eval(x.X, depth+1), e.eval(x.Y, depth+1)
		if l == nil || r == nil {
			return tv.Value
		}
		switch x.Op {
		case token.SHL, token.SHR:
			s, ok := constant.Uint64Val(constant.ToInt(r))
			if !ok {
				return tv.Value
			}
			return constant.Shift(l, x.Op, uint(s))
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return constant.MakeBool(constant.Compare(l, x.Op, r))
		case token.QUO:
			if constant.Sign(r) == 0 {
				return tv.Value
			}
			if l.Kind() == constant.Int && r.Kind() == constant.Int {
				return constant.BinaryOp(l, token.QUO_ASSIGN, r) // integer division
			}
		}
		return constant.BinaryOp(l, x.Op, r)
	case *ast.UnaryExpr:
		v := e.eval(x.X, depth+1)
		if v == nil {
			return tv.Value
		}
		return constant.UnaryOp(x.Op, v, 0)
	case *ast.CallExpr:
		return e.call(x, tv, depth)
	}
	return tv.Value
}

// call evaluates unsafe.Sizeof, Alignof and Offsetof, and conversions,
// on the evaluator's GOARCH.
func (e *lenEval) call(x *ast.CallExpr, tv types.TypeAndValue, depth int) constant.Value {
	if ft, ok := e.info.Types[x.Fun]; ok && ft.IsType() && len(x.Args) == 1 {
		if v := e.eval(x.Args[0], depth+1); v != nil {
			return v // a conversion of a constant: uintptr(n)
		}
		return tv.Value
	}
	sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	if !ok || len(x.Args) != 1 {
		return tv.Value
	}
	fn, ok := e.info.Uses[sel.Sel].(*types.Builtin)
	if !ok {
		return tv.Value
	}
	switch fn.Name() {
	case "Sizeof":
		size, _ := e.b.measure(e.info.TypeOf(x.Args[0]))
		return constant.MakeInt64(size)
	case "Alignof":
		_, align := e.b.measure(e.info.TypeOf(x.Args[0]))
		return constant.MakeInt64(align)
	case "Offsetof":
		s, ok := ast.Unparen(x.Args[0]).(*ast.SelectorExpr)
		if !ok {
			return tv.Value
		}
		sel := e.info.Selections[s]
		if sel == nil || len(sel.Index()) != 1 {
			return tv.Value
		}
		recv := sel.Recv()
		if p, ok := recv.Underlying().(*types.Pointer); ok {
			recv = p.Elem()
		}
		st, ok := recv.Underlying().(*types.Struct)
		if !ok {
			return tv.Value
		}
		return constant.MakeInt64(e.b.offsets(recv, st)[sel.Index()[0]])
	}
	return tv.Value
}
