package falsesharing

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/token"
	"slices"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/mglayout/mglayout/layout"
)

// checkComputedPadding reports padding computed as [N - x%N]byte that
// comes to N: a whole line that separates nothing (FS5).
func (c *checker) checkComputedPadding() {
	for n := range c.in.PreorderSeq((*ast.Field)(nil)) {
		func() {
			field := n.(*ast.Field)
			if !paddingName(field) {
				return
			}
			arr, ok := field.Type.(*ast.ArrayType)
			if !ok || arr.Len == nil {
				return
			}
			line, ok := c.moduloPad(arr.Len)
			if !ok {
				return
			}
			tv, ok := c.pass.TypesInfo.Types[arr.Len]
			if !ok || tv.Value == nil || tv.Value.String() != strconv.FormatInt(line, 10) {
				return
			}
			var buf bytes.Buffer
			_ = format.Node(&buf, c.pass.Fset, arr.Len)
			var name string
			if len(field.Names) > 0 {
				name = field.Names[0].Name
			}
			c.report(analysis.Diagnostic{
				Pos: field.Pos(), End: field.End(), Category: WholeLinePadding.ID, URL: WholeLinePadding.URL(),
				Message: fmt.Sprintf("padding [%s]byte comes to a whole %d-byte line, because what it pads is already a multiple of %d: it separates nothing (FS5, declared)", buf.String(), line, line),
				SuggestedFixes: []analysis.SuggestedFix{{
					Message:   fmt.Sprintf("Pad (%s) %% %d bytes", buf.String(), line),
					TextEdits: []analysis.TextEdit{{Pos: arr.Len.Pos(), End: arr.Len.End(), NewText: []byte(fmt.Sprintf("(%s) %% %d", buf.String(), line))}},
				}},
			}, &Finding{Rule: WholeLinePadding, Tier: Declared, Member: name, Holds: []Holding{{Line: line}}})
		}()
	}
}

// paddingName reports whether a field declaration names padding, as
// layout.Field.Padding does.
func paddingName(field *ast.Field) bool {
	return slices.ContainsFunc(field.Names, func(n *ast.Ident) bool { return n.Name == "_" || layout.PadName(n.Name) })
}

// moduloPad matches N - x%N, N a constant (a literal or a named
// constant such as cacheLineSize), and returns N.
func (c *checker) moduloPad(e ast.Expr) (int64, bool) {
	sub, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || sub.Op != token.SUB {
		return 0, false
	}
	n, ok := c.constInt(sub.X)
	if !ok {
		return 0, false
	}
	rem, ok := ast.Unparen(sub.Y).(*ast.BinaryExpr)
	if !ok || rem.Op != token.REM {
		return 0, false
	}
	m, ok := c.constInt(rem.Y)
	return n, ok && m == n
}

// constInt returns the value of a constant integer expression.
func (c *checker) constInt(e ast.Expr) (int64, bool) {
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

func intLit(e ast.Expr) (int64, bool) {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return 0, false
	}
	n, err := strconv.ParseInt(lit.Value, 0, 64)
	return n, err == nil
}
